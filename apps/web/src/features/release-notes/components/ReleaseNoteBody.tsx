import { Typography } from '@mantine/core';
import classes from './ReleaseNoteBody.module.css';

/**
 * A release note's HTML. The server sanitizes every note before it is stored (and the preview
 * before it is answered) to a short allowlist with no script, handler or style, so it is shown
 * as HTML here; the page's Content-Security-Policy forbids inline script besides.
 */
export function ReleaseNoteBody({ html }: { html: string }) {
  return <Typography fz="sm" className={classes.body} dangerouslySetInnerHTML={{ __html: html }} />;
}
