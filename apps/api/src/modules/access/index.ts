// The access layer's face: routes declare `config.access`; services take the actor it resolves.
export { registerAccess, requireActor, type AccessRule, type Actor } from './hook.ts';
