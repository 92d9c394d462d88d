// The site's address (web/site-config.json "siteUrl") and the hreflang alternates the build writes
// from it: full addresses of every language's page when the address is known, none when it is not
// (search engines ignore relative ones), and a clear error naming the field for anything else.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { languageAlternates, lessonLanguages, siteAddress } from '../../web/site-builder/build-site.mjs';

const RULE = /web\/site-config\.json "siteUrl" must be null or the absolute http\(s\) address of the folder/;

/** [hreflang, href] of each <link rel="alternate"> line. */
const links = (html) =>
  [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map(([, lang, href]) => [lang, href]);

test('siteAddress: null when not known; an http(s) folder address, ending in /', () => {
  assert.equal(siteAddress(null), null);
  assert.equal(siteAddress(undefined), null);
  assert.equal(siteAddress('https://example.org/positional'), 'https://example.org/positional/');
  assert.equal(siteAddress('https://example.org/positional/'), 'https://example.org/positional/');
  assert.equal(siteAddress('http://127.0.0.1:8080'), 'http://127.0.0.1:8080/');
});

test('siteAddress: anything else is refused, naming the field, the rule and the value', () => {
  for (const value of [
    'positional/',
    '/positional/',
    '',
    'ftp://example.org/',
    'https://example.org/?v=1',
    'https://example.org/#top',
    'https://user:pw@example.org/',
    42,
    {},
  ]) {
    assert.throws(
      () => siteAddress(value),
      (error) => RULE.test(error.message) && error.message.endsWith(`not ${JSON.stringify(value)}`),
      JSON.stringify(value),
    );
  }
});

test('the committed web/site-config.json has a valid siteUrl', () => {
  const config = JSON.parse(readFileSync(new URL('../../web/site-config.json', import.meta.url), 'utf8'));
  assert.ok('siteUrl' in config, 'siteUrl is listed, so a host sees where to set it');
  assert.doesNotThrow(() => siteAddress(config.siteUrl));
});

test('languageAlternates: every language and x-default (English) as full addresses under the site', () => {
  const languages = lessonLanguages();
  assert.ok(languages.length >= 2, 'the lesson has a translation');
  const alternates = links(languageAlternates(languages, siteAddress('https://example.org/lessons/positional')));
  const expected = [
    ...languages.map((l) => [
      l.code,
      l.dir
        ? `https://example.org/lessons/positional/${l.dir}/index.html`
        : 'https://example.org/lessons/positional/index.html',
    ]),
    ['x-default', 'https://example.org/lessons/positional/index.html'],
  ];
  assert.deepEqual(alternates, expected);
  assert.deepEqual(
    alternates.map(([lang]) => lang).filter((lang) => lang !== 'x-default'),
    languages.map((l) => l.code),
  );
});

test('languageAlternates: none without the site address, and none for one language', () => {
  const languages = lessonLanguages();
  assert.equal(languageAlternates(languages, null), '');
  assert.equal(languageAlternates(languages.slice(0, 1), 'https://example.org/'), '');
});
