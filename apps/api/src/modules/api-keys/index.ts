// The api-keys module's face (issue 21 item 1): its routes, and the resolver the kernel asks.
export { apiKeyRoutes as apiKeysModule } from './routes.ts';
export { ApiKeyResolver } from './resolver.ts';
