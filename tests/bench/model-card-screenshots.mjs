// Screenshots of the "Read your model's card" widget (Llama 3.1 8B, Llama 2 7B, GPT-2, and one preset per added family), light and
// dark, at 360 and 1280 px, into build/screenshots/model-card/ (gitignored) for a person to look at.
//   node tests/bench/model-card-screenshots.mjs [--dist dist] [--out build/screenshots/model-card] [--preset id]
import { join } from 'node:path';
import { screenshotArgs, screenshotEachLook } from './browse.mjs';

const { dist, out, preset: only } = screenshotArgs('build/screenshots/model-card', { preset: { type: 'string' } });

const PRESETS = [
  'llama-3.1-8b',
  'llama-2-7b',
  'gpt2',
  'qwen2.5-7b-instruct-yarn',
  't5-v1_1-base',
  'deepseek-v3',
  'mamba-130m',
  'modernbert-base',
  'bloom-560m',
  'opt-125m',
  'llama-4-scout-17b-16e',
  'gemma-3-27b-it',
  'gemma-4-26b-a4b-it',
  'gpt-oss-20b',
  'qwen3-8b-yarn',
  'qwen2.5-vl-7b-instruct',
  'qwen3-next-80b-a3b-instruct',
  'minimax-text-01',
  'deepseek-v3.2-exp',
  'deepseek-v4-flash',
  'glm-5',
];
const ROOT = '[data-chart-root="model-card"]';
const chosen = only ? [only] : PRESETS;
await screenshotEachLook(dist, async (page, { theme, width, url }) => {
  for (const preset of chosen) {
    await page.goto(`${url}?charts=eager&card.preset=${preset}`);
    await page.waitForFunction((root) => document.querySelector(root)?.dataset.cardState === 'ready', ROOT, {
      timeout: 30000,
    });
    // The sticky site bar would cover the top of an element screenshot.
    await page.evaluate(() => document.querySelector('.site-bar')?.style.setProperty('visibility', 'hidden'));
    const slot = page.locator('#fig-model-card');
    await slot.scrollIntoViewIfNeeded();
    await page.waitForTimeout(80);
    await slot.screenshot({ path: join(out, `${preset}-${theme}-${width}.png`) });
  }
});
console.log(`screenshots in ${out}`);
