/** The console's views, in the order of its navigation; `management` views need a management key. */
export interface ConsoleView {
  href: string;
  label: string;
  management?: boolean;
}

export const CONSOLE_VIEWS: readonly ConsoleView[] = [
  { href: '/console', label: 'Overview' },
  { href: '/console/facts', label: 'Facts' },
  { href: '/console/query', label: 'Query' },
  { href: '/console/entities', label: 'Entities' },
  { href: '/console/sessions', label: 'Sessions' },
  { href: '/console/documents', label: 'Documents' },
  { href: '/console/contexts', label: 'Contexts', management: true },
  { href: '/console/keys', label: 'Keys', management: true },
  { href: '/console/migrations', label: 'Migrations', management: true },
];
