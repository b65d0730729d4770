import type { BundleManifest } from './manifest.js';

/**
 * The bundle.json fields a bundle uses beyond the demo's shape (docs/bundle-format.md, "Real
 * architectures"); the native backend, which runs the demo architecture only, refuses them by name.
 */
export function beyondDemoShape(m: BundleManifest): string[] {
  const used: [boolean, string][] = [
    [m.embed.table !== undefined, 'embed.table'],
    [m.talker.specialIds !== undefined, 'talker.specialIds'],
    [m.talker.prefill !== undefined, 'talker.prefill'],
    [m.talker.textConditioning !== undefined, 'talker.textConditioning'],
    [m.codePredictor?.projection !== undefined, 'codePredictor.projection'],
    [m.talker.codebooks !== undefined, 'talker.codebooks'],
    [m.encoder !== undefined, 'encoder'],
    [m.codebookDelays !== undefined, 'codebookDelays'],
    [m.codebookSizes !== undefined, 'codebookSizes'],
  ];
  return used.filter(([on]) => on).map(([, field]) => field);
}
