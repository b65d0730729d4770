/** Menu commands the desktop shell sends to the renderer. */
export const SHELL_COMMANDS = ['import-wavs', 'export-fixture', 'synthesize', 'cancel'] as const;
export type ShellCommand = (typeof SHELL_COMMANDS)[number];

/** `window.studioShell`: what only the desktop app has (native dialogs, menu commands). */
export interface StudioShell {
  openWavs(): Promise<{ paths: string[] }>;
  chooseExportDir(): Promise<{ path?: string }>;
  onCommand(listener: (command: ShellCommand) => void): () => void;
}
