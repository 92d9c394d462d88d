// Connects the self-test to whichever learning platform launched the page: cmi5 (launch
// parameters in the URL), SCORM 2004 or SCORM 1.2 (an API object up the window chain), or none.
// With none, the lesson runs exactly as it does on its own.
import { findApi } from './find-api.js';
import { scormTracker } from './scorm.js';
import { cmi5Launch, cmi5Tracker } from './cmi5.js';

/** Which platform the page was launched by: { kind: 'cmi5' | 'scorm2004' | 'scorm12' | 'none', … }. */
export function detectPlatform(win = window) {
  const launch = cmi5Launch(win.location.search);
  if (launch) return { kind: 'cmi5', launch };
  const api2004 = findApi('API_1484_11', win);
  if (api2004) return { kind: 'scorm2004', api: api2004 };
  const api12 = findApi('API', win);
  if (api12) return { kind: 'scorm12', api: api12 };
  return { kind: 'none' };
}

/**
 * Reports `selfTest` (from setupSelfTest) to the platform, commits after every answer and when
 * the page is hidden, and finishes the session when the page goes away. Returns the tracker, or
 * null when no platform launched the page (or it could not be reached: the lesson carries on).
 */
export async function startCourseTracking(selfTest) {
  let platform;
  try {
    platform = detectPlatform();
  } catch (error) {
    console.warn('The launch address names a course site the lesson cannot read; it works without one.', error);
    document.documentElement.dataset.lms = 'unreadable-launch';
    return null;
  }
  document.documentElement.dataset.lms = platform.kind;
  if (platform.kind === 'none') return null;
  let tracker;
  try {
    tracker =
      platform.kind === 'cmi5'
        ? await cmi5Tracker(platform.launch)
        : scormTracker(platform.api, platform.kind === 'scorm12' ? '1.2' : '2004');
    const saved = tracker.start(selfTest.summary());
    if (saved) selfTest.restore(saved);
  } catch (error) {
    console.warn('The course site could not be reached; the lesson works without it.', error);
    document.documentElement.dataset.lms = `${platform.kind}-unreachable`;
    return null;
  }
  addEventListener('positional-lesson:self-test', (event) => {
    const { item, answer, summary } = event.detail;
    tracker.answered(item, answer, summary, selfTest.answers);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') tracker.commit();
  });
  addEventListener('pagehide', () => tracker.finish(selfTest.summary()));
  document.documentElement.dataset.lmsConnected = platform.kind;
  return tracker;
}
