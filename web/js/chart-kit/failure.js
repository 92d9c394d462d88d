// The text a chart shows in its place when it cannot be drawn: a light module, so the chart index
// can say so without loading the chart kit.

import { t } from '../locale/i18n.js';

/** The text shown where a chart could not be drawn (text only, never markup). */
export function failureText(error) {
  const reason = String(error?.message ?? error).slice(0, 300);
  return t(
    'This chart could not be drawn with these settings ({reason}). Change a control to try again; the rest of the page still works.',
    { reason },
  );
}
