// A learner at the self-test, for the browser suites: finds each item on the page (in whatever
// frame holds the lesson), picks a choice by its id whatever order the page shows it in, and types
// numbers as people type them (a Unicode minus, a thousands comma); the right numbers come from the
// same engine, run in Node.
import { SELF_TEST_ITEMS, isGraded, slotOf } from '../../web/js/self-test/self-test-items.js';
import { loadEngine } from '../node/engine-loader.mjs';

/** Four checks a failing learner gets wrong: 8 of 12 = 0.667, under the 0.8 mastery score. */
export const FAILED_ITEMS = new Set(['choose_long_context', 'ntk_base', 'rope_depends_on', 'pi_vs_ntk']);
/** Two a learner who passes anyway gets wrong: 10 of 12 = 0.833. */
export const NEARLY_ITEMS = new Set(['alibi_where', 'interpolated_position']);

/** The page's slots (each slot's first variant stands for it): what one attempt asks. */
export const SLOTS = SELF_TEST_ITEMS.filter((item) => slotOf(item) === item.id);
/** The checks of one attempt, a slot each. */
export const GRADED = SLOTS.filter(isGraded);

/** The placeholder of `item`'s slot in `frame`. */
export const slotElement = (frame, item) => frame.locator(`.graded-item[data-item="${slotOf(item)}"]`);

/** The variant the page shows in `item`'s slot (the attempt's draw: data-variant). */
export async function shownVariant(frame, item) {
  const id = await slotElement(frame, item).getAttribute('data-variant');
  return SELF_TEST_ITEMS.find((i) => i.id === id);
}

/** The ids the page shows for the slots of `items`, in their order. */
export async function shownIds(frame, items = SELF_TEST_ITEMS) {
  const ids = [];
  for (const item of items) {
    const { id } = await shownVariant(frame, item);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

let engine;
/** The engine's answer to `item` with the attempt's numbers `params` (the page states them in the slot's data-params). */
async function expected(item, params) {
  engine ??= await loadEngine();
  return item.answerWith(engine, params);
}

/** The attempt's numbers for numeric `item` on the page in `frame`. */
export async function attemptParams(frame, item) {
  return JSON.parse(await slotElement(frame, item).getAttribute('data-params'));
}

/** The text a learner types for `item` with the attempt's numbers `params`: the engine's value, or a wrong one. */
export async function typedAnswer(item, params, wrongly = false) {
  const right = await expected(item, params);
  const value = wrongly ? right * 1.1 + 1 : right;
  // A relative tolerance: six significant digits, grouped as people write them (82,685 or 0.00390625).
  if (item.relative) return Number(value.toPrecision(6)).toLocaleString('en-US', { maximumFractionDigits: 12 });
  return value.toFixed(4).replace('-', '\u2212');
}

/** Picks the choice of `item` with id `choiceId` (or its right one, or a wrong one if `wrongly`) and checks it. */
export async function answerChoice(frame, given, { wrongly = false, choiceId = null } = {}) {
  // The variant of the slot the attempt drew.
  const item = await shownVariant(frame, given);
  const slot = slotElement(frame, item);
  // An open prediction has no right (or wrong) choice (isOpenPrediction): every choice is recorded alike,
  // so take the first.
  const id = choiceId ?? (item.choices.find((c) => Boolean(c.correct) !== wrongly) ?? item.choices[0]).id;
  await slot.locator('label.graded-choice', { has: frame.locator(`input[value="${id}"]`) }).click();
  await slot.locator('button.graded-check').click();
}

/**
 * Answers `items` (every item by default) in `frame` with the pointer and keyboard: rightly, or
 * wrongly for the ids in `wrong`. Waits for each to be locked.
 */
export async function answerAll(frame, wrong = new Set(), items = SELF_TEST_ITEMS) {
  const done = new Set();
  for (const given of items) {
    // A slot is answered once, in the variant the attempt drew; wrongly if the slot or that variant is in `wrong`.
    if (done.has(slotOf(given))) continue;
    done.add(slotOf(given));
    const item = await shownVariant(frame, given);
    if (wrong.has(slotOf(given))) wrong = new Set([...wrong, item.id]);
    const slot = slotElement(frame, item);
    await slot.scrollIntoViewIfNeeded();
    if (item.kind === 'numeric') {
      await slot.locator('input').fill(await typedAnswer(item, await attemptParams(frame, item), wrong.has(item.id)));
      await slot.locator('input').press('Enter');
    } else await answerChoice(frame, item, { wrongly: wrong.has(item.id) });
    await frame
      .waitForFunction((id) => document.querySelector(`.graded-item[data-item="${id}"]`).dataset.answered, slotOf(item))
      .catch(async (error) => {
        // Say which item stayed open, and what the page said of it.
        let said = '(no feedback)';
        try {
          said = await slot.locator('.graded-feedback').first().textContent({ timeout: 2000 });
        } catch {
          // The feedback could not be read: the item's id says enough.
        }
        throw new Error(`${item.id} (${item.kind}) was not taken: “${said}”`, { cause: error });
      });
  }
}

/** The frame of `page` whose address matches `match`, once the lesson in it has finished loading. */
export async function waitForFrame(page, match, { timeout = 60000 } = {}) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    const frame = page.frames().find(match);
    if (frame) {
      await frame.waitForFunction(
        () => document.documentElement.dataset.liveState && !document.documentElement.classList.contains('is-loading'),
        null,
        { timeout },
      );
      return frame;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the lesson frame never appeared');
}
