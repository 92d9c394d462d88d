// Where the charts paint (web/js/chart-kit/painter.js): what the address asks for, and which engines
// are kept on the page's painting whatever they support.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWebKit, paintAsked } from '../../web/js/chart-kit/painter.js';

test('paintAsked reads ?paint=page and ?paint=worker, and nothing else', () => {
  assert.equal(paintAsked('?paint=page'), 'page');
  assert.equal(paintAsked('?charts=eager&paint=worker'), 'worker');
  assert.equal(paintAsked('?paint=gpu'), null);
  assert.equal(paintAsked('?paint=<b>'), null);
  assert.equal(paintAsked(''), null);
});

test('isWebKit: WebKit browsers (every one on iOS), not Chromium, Edge or Firefox', () => {
  const agents = {
    webkitgtk:
      'Mozilla/5.0 (X11; Ubuntu; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
    safari:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    chromium: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    headlessChromium:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
    edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 Edg/156.0.0.0',
    chromeOnIos:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/156.0 Mobile/15E148 Safari/604.1',
    firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0',
  };
  const webkit = Object.entries(agents)
    .filter(([, agent]) => isWebKit(agent))
    .map(([name]) => name);
  assert.deepEqual(webkit, ['webkitgtk', 'safari', 'chromeOnIos']);
});
