import fs from 'node:fs';
import { type LinkageModel, ModelError, parseModel } from '../../linkage/model.js';

/** The model that ships with athar (trained on synthetic data; `athar link --train` retrains on yours). */
export const defaultModelFile = new URL('../../linkage/default-model.json', import.meta.url);

/** Reads and validates a model file; errors name the file. */
export function readModelFile(file: string | URL = defaultModelFile): LinkageModel {
  const where = typeof file === 'string' ? file : file.pathname;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ModelError(`${where}: cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelError(`${where}: not JSON (${(error as Error).message})`);
  }
  return parseModel(json, where);
}

export function writeModelFile(file: string, model: LinkageModel): void {
  fs.writeFileSync(file, `${JSON.stringify(model, null, 2)}\n`);
}
