// Routes (the router's channel routes) on the admin port: list, change, bind merchants, and the console's
// home figures per route.

export { registerFiguresAdmin } from './route-figures.routes.js';
export { ROUTES_PERMISSIONS } from './routes.permissions.js';
export { registerRoutesAdmin } from './routes-admin.routes.js';
