// The members module's face: what other modules may use of it.
export { assertMemberLimit, type MemberKind } from './limits.ts';
