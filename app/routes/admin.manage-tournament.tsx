/**
 * /admin/manage-tournament: the /admin layout's child of spec §2 (where /admin lands), the same
 * screen as /admin/manage-tournaments. One route module per screen: this URL re-exports it.
 */
export { default, ErrorBoundary, headers, loader, meta } from './admin.manage-tournaments';
