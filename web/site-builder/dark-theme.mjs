// The dark palettes of web/css are written once each, as the theme switch's rule
// :root[data-theme='dark']; the build gives the same declarations to a dark system
// (prefers-color-scheme) wherever the reader has not chosen light.

const DARK_THEME_RULE = /^:root\[data-theme='dark'\] \{\n([^{}]*)\}\n/gm;

/**
 * `css` with, in front of each top-level `:root[data-theme='dark'] { … }` rule, the same
 * declarations for `:root:not([data-theme='light'])` under `@media (prefers-color-scheme: dark)`.
 * Both selectors are equally specific and set the same values, so neither order nor overlap matters.
 */
export function withSystemDarkTheme(css) {
  return css.replace(DARK_THEME_RULE, (rule, declarations) => {
    const indented = declarations.replace(/^(?=.)/gm, '  ');
    return `@media (prefers-color-scheme: dark) {\n  :root:not([data-theme='light']) {\n${indented}  }\n}\n\n${rule}`;
  });
}
