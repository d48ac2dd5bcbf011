// A tag of a few characters (a count, a priority, a state's name): Blueprint's Tag measuring nothing.
import { Tag, type TagProps } from '@blueprintjs/core';

/**
 * Blueprint's `Tag` cuts its text with an ellipsis and, to title a cut one, measures the text in a layout effect: the
 * first such read in a commit lays the whole page out inside React's task (issue 48: 12-23 ms of the cold dashboard's
 * longest tasks, its door counts, the handover's counts and the header's alarm count). A tag whose text is a few
 * characters is never cut: here it is one line (`nowrap`) and measured by no one (`multiline` is what turns the
 * measuring off).
 */
export function ShortTag({ style, ...props }: Omit<TagProps, 'multiline'>) {
  return <Tag {...props} multiline style={{ whiteSpace: 'nowrap', ...style }} />;
}
