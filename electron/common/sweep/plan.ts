import type { CorpusPrompt } from './corpus.js';
import { caseKey } from './sweep-case.js';
import type { Shard } from './shard.js';

/** One case to run: a prompt with one seed, at its place in the whole sweep. */
export interface PlannedCase {
  index: number;
  id: string;
  text: string;
  seed: number;
  key: string;
}

/** Prompts × seeds in corpus order (a prompt's own seed replaces the list). */
export function planCases(prompts: CorpusPrompt[], seeds: number[]): PlannedCase[] {
  const cases: PlannedCase[] = [];
  for (const p of prompts) {
    for (const seed of p.seed === undefined ? seeds : [p.seed]) {
      cases.push({ index: cases.length, id: p.id, text: p.text, seed, key: caseKey({ id: p.id, seed }) });
    }
  }
  return cases;
}

/** The cases of shard i of n: every n-th case from the (i−1)-th, so shards are balanced and disjoint. */
export function shardCases<T extends { index: number }>(cases: T[], shard: Shard): T[] {
  return cases.filter((c) => c.index % shard.count === shard.index - 1);
}
