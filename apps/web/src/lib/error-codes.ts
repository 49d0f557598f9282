// The contract's error codes (a zod-free module of it), for the web app to branch on.
export { ErrorCode } from '@portolan/contract';
