// The share-links module's face: read-only public links to a workspace's module pages (spec §2
// "Any path containing /share/ is public"): members make, list and revoke them; anyone with the
// token opens the read-only view.
export { shareLinkRoutes as shareLinksModule } from './routes.ts';
