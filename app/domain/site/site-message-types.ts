/** Site message types (spec 01): shared by the admin form and the server validation. */
export const SITE_MESSAGE_TYPES = ['warning', 'error', 'info', 'success'] as const
