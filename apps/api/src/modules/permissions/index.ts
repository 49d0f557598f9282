// The permissions module's face: access rules, custom roles, the catalogue and members' permissions.
export { permissionRoutes as permissionsModule } from './routes.ts';
export { dropMemberGrants } from './member-repo.ts';
export { permissionsExporter } from './data-export.ts';
export { ownModuleAccess } from './own-permissions.ts';
