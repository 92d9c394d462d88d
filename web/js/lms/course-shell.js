// @ts-check
// The course package's launch page (index.html in every SCORM and cmi5 zip): finds the course site
// that launched it (cmi5 launch parameters in its address, or a SCORM run-time's API object up the
// chain of windows), opens the one session with it (lms/course-session.js) and frames the lesson.
// The lesson page can change (its language switch loads the other language into the frame) while
// this page, and the session, stay. The site build bundles this module into the page as one inline
// script, so the package needs nothing a course site might serve with the wrong type.
import { findApi } from './find-api.js';
import { scormConnection } from './scorm.js';
import { cmi5Connection, cmi5Launch } from './cmi5.js';
import { createCourseSession } from './course-session.js';
import { testLevel } from '../self-test/self-test-items.js';

/** The connection to whichever course site launched `win`: cmi5 first, then SCORM 2004, then SCORM 1.2; null for none. */
export function courseConnection(win = window) {
  const launch = cmi5Launch(win.location.search);
  if (launch) return cmi5Connection(launch);
  const api2004 = findApi('API_1484_11', win);
  if (api2004) return scormConnection(api2004, '2004');
  const api12 = findApi('API', win);
  if (api12) return scormConnection(api12, '1.2');
  return null;
}

function start() {
  const root = document.documentElement;
  let connection = null;
  let launchProblem = null;
  try {
    connection = courseConnection();
  } catch (error) {
    // A launch address the shell cannot read: the lesson runs, and says the course is out of reach.
    launchProblem = error;
    console.warn('The launch address names a course site the lesson cannot read:', error.message);
  }
  // The test the course chose: ?level=1, 2 or all on the launch address (the package's manifest or
  // course structure sets it); the shell grades only that level's checks and the lesson opens at it.
  const level = testLevel(new URLSearchParams(location.search).get('level'));
  const session = createCourseSession(connection, { level });
  if (launchProblem) session.api.connect = unreachable(session.api.connect);
  /** @type {any} */ (window).positionalCourse = session.api;
  root.dataset.course = connection?.kind ?? (launchProblem ? 'unreadable-launch' : 'none');

  const frame = document.createElement('iframe');
  frame.src = level === 'all' ? root.dataset.lesson : `${root.dataset.lesson}?level=${level}`;
  frame.title = document.title;
  frame.className = 'course-lesson';
  // The lesson's own links to figures and sections stay inside the frame; a cmi5 exit leaves the whole page.
  document.body.append(frame);

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') session.flush();
  });
  addEventListener('pagehide', () => session.close());
}

/** connect() for a launch that could not be read: the lesson keeps its answers and says the course cannot be reached. */
function unreachable(connect) {
  return (client) => ({ ...connect(client), kind: 'unreadable-launch', status: 'offline' });
}

start();
