// The roles are the domain's vocabulary (configuration names them too); access gives them their permissions.
export { isRole, type Role, roles } from '../domain/roles.js';
