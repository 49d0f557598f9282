import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

type LazyPage = (load: () => Promise<ComponentType>) => RouteObject['lazy'];
const handle = (h: RouteHandle) => h;

const editor = (lazyPage: LazyPage) =>
  lazyPage(() => import('./pages/ReleaseNoteEditorPage').then((m) => m.ReleaseNoteEditorPage));

/**
 * The platform administrators' pages (linked from the release-notes panel): the list, a new note,
 * and one note's changes; `lazyPage` is the router's chunk loader.
 */
export function releaseNotesRoutes(lazyPage: LazyPage): RouteObject[] {
  return [
    {
      path: 'ps/release-notes',
      handle: handle({ crumb: 'Release notes' }),
      children: [
        {
          index: true,
          handle: handle({ title: 'Release notes', name: 'ps-ReleaseNotes' }),
          lazy: lazyPage(() =>
            import('./pages/ReleaseNotesAdminPage').then((m) => m.ReleaseNotesAdminPage),
          ),
        },
        {
          path: 'new',
          handle: handle({ title: 'New release note', crumb: 'New', name: 'ps-ReleaseNoteCreate' }),
          lazy: editor(lazyPage),
        },
        {
          path: ':noteId',
          handle: handle({ title: 'Edit release note', crumb: 'Edit', name: 'ps-ReleaseNoteEdit' }),
          lazy: editor(lazyPage),
        },
      ],
    },
  ];
}
