// The model configs the "Read your model's card" widget offers, read from web/presets/ as JSON
// modules: the served site fetches them same-origin beside the page, the single-file build inlines them.

import { t, tData } from '../../locale/i18n.js';
import index from '../../../presets/index.json' with { type: 'json' };
import bertBaseUncased from '../../../presets/bert-base-uncased.json' with { type: 'json' };
import bloom560m from '../../../presets/bloom-560m.json' with { type: 'json' };
import deepseekV3 from '../../../presets/deepseek-v3.json' with { type: 'json' };
import deepseekV32Exp from '../../../presets/deepseek-v3.2-exp.json' with { type: 'json' };
import deepseekV4Flash from '../../../presets/deepseek-v4-flash.json' with { type: 'json' };
import glm5 from '../../../presets/glm-5.json' with { type: 'json' };
import kimiLinear from '../../../presets/kimi-linear-48b-a3b-instruct.json' with { type: 'json' };
import mamba130m from '../../../presets/mamba-130m.json' with { type: 'json' };
import modernbertBase from '../../../presets/modernbert-base.json' with { type: 'json' };
import opt125m from '../../../presets/opt-125m.json' with { type: 'json' };
import qwen25Yarn from '../../../presets/qwen2.5-7b-instruct-yarn.json' with { type: 'json' };
import t5v11Base from '../../../presets/t5-v1_1-base.json' with { type: 'json' };
import gpt2 from '../../../presets/gpt2.json' with { type: 'json' };
import llama27b from '../../../presets/llama-2-7b.json' with { type: 'json' };
import llama318b from '../../../presets/llama-3.1-8b.json' with { type: 'json' };
import mistral7b from '../../../presets/mistral-7b-v0.1.json' with { type: 'json' };
import mistralMedium35 from '../../../presets/mistral-medium-3.5-128b.json' with { type: 'json' };
import phi35mini from '../../../presets/phi-3.5-mini-instruct.json' with { type: 'json' };
import qwen27b from '../../../presets/qwen2-7b-instruct.json' with { type: 'json' };
import yarnLlama27b from '../../../presets/yarn-llama-2-7b-64k.json' with { type: 'json' };
import llama4Scout from '../../../presets/llama-4-scout-17b-16e.json' with { type: 'json' };
import gemma3_27b from '../../../presets/gemma-3-27b-it.json' with { type: 'json' };
import gemma4_26b from '../../../presets/gemma-4-26b-a4b-it.json' with { type: 'json' };
import gptOss20b from '../../../presets/gpt-oss-20b.json' with { type: 'json' };
import qwen3Yarn from '../../../presets/qwen3-8b-yarn.json' with { type: 'json' };
import qwen25Vl from '../../../presets/qwen2.5-vl-7b-instruct.json' with { type: 'json' };
import qwen3Next from '../../../presets/qwen3-next-80b-a3b-instruct.json' with { type: 'json' };
import minimaxText01 from '../../../presets/minimax-text-01.json' with { type: 'json' };
import llama4ScoutInstruct from '../../../presets/llama-4-scout-17b-16e-instruct.json' with { type: 'json' };
import smollm3 from '../../../presets/smollm3-3b.json' with { type: 'json' };
import granite4h350m from '../../../presets/granite-4.0-h-350m.json' with { type: 'json' };

// A static import per file is what lets the single-file bundler inline them; index.json stays
// the list (its order and labels), and a file it names without an import here is an error.
const FILES = {
  'bert-base-uncased.json': bertBaseUncased,
  'bloom-560m.json': bloom560m,
  'deepseek-v3.json': deepseekV3,
  'deepseek-v3.2-exp.json': deepseekV32Exp,
  'deepseek-v4-flash.json': deepseekV4Flash,
  'glm-5.json': glm5,
  'kimi-linear-48b-a3b-instruct.json': kimiLinear,
  'mamba-130m.json': mamba130m,
  'modernbert-base.json': modernbertBase,
  'opt-125m.json': opt125m,
  'qwen2.5-7b-instruct-yarn.json': qwen25Yarn,
  't5-v1_1-base.json': t5v11Base,
  'gpt2.json': gpt2,
  'llama-2-7b.json': llama27b,
  'llama-3.1-8b.json': llama318b,
  'mistral-7b-v0.1.json': mistral7b,
  'mistral-medium-3.5-128b.json': mistralMedium35,
  'phi-3.5-mini-instruct.json': phi35mini,
  'qwen2-7b-instruct.json': qwen27b,
  'yarn-llama-2-7b-64k.json': yarnLlama27b,
  'llama-4-scout-17b-16e.json': llama4Scout,
  'gemma-3-27b-it.json': gemma3_27b,
  'gemma-4-26b-a4b-it.json': gemma4_26b,
  'gpt-oss-20b.json': gptOss20b,
  'qwen3-8b-yarn.json': qwen3Yarn,
  'qwen2.5-vl-7b-instruct.json': qwen25Vl,
  'qwen3-next-80b-a3b-instruct.json': qwen3Next,
  'minimax-text-01.json': minimaxText01,
  'llama-4-scout-17b-16e-instruct.json': llama4ScoutInstruct,
  'smollm3-3b.json': smollm3,
  'granite-4.0-h-350m.json': granite4h350m,
};

/**
 * [{ id, label, file, text }] in index.json's order; text is the config as indented JSON, label the
 * model's name with its note (what it shows) in parentheses, the note in the page's language.
 */
export const MODEL_PRESETS = index.presets.map(({ id, label: name, note, file }) => {
  const config = FILES[file];
  if (!config) throw new Error(`presets/index.json names ${file}, which model-presets.js does not import`);
  const label = note ? t('{name} ({note})', { name, note: tData(note) }) : name;
  return { id, label, file, text: JSON.stringify(config, null, 2) };
});
