/** Written into every report so a fixture records which tool produced it. */
export const TOOL_NAME = 'tts-parity-studio';
export const TOOL_VERSION = '0.1.0';
