import { homedir } from 'node:os';
import { join } from 'node:path';

const APP_DIR_NAME = 'tts-parity-studio';

/**
 * Where history lives when `--data-dir` is not given: the per-user data folder of each OS
 * ($XDG_DATA_HOME or ~/.local/share on Linux, ~/Library/Application Support on macOS, %APPDATA% on Windows).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.local', 'share'), APP_DIR_NAME);
}
