// What main.js needs only once the engine is on its way: the live numbers' rules, the snippets'
// checks, the self-test and its course link, the share control, the prose's parameters and links,
// and the first question's fields. main.js fetches them by one dynamic import as it starts, beside
// the engine, so that DOMContentLoaded waits only for the page's shell (reading controls, contents,
// embed view).
export { computeEngineResults, liveText, LIVE_QUANTITIES } from './prose/live-values.js';
export { SNIPPET_CHECKS } from './prose/snippet-checks.js';
export { setupSelfTest } from './self-test/self-test.js';
export { SELF_TEST_ITEMS } from './self-test/self-test-items.js';
export { courseMemory, findCourseShell } from './lms/course-link.js';
export { addShareControls } from './page/share-embed.js';
export { setupProseParameters } from './prose/prose-params.js';
export { setupProseLinks } from './prose/prose-links.js';
export { setupFirstQuestion } from './page/first-question.js';
