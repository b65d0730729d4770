import { contextBridge, ipcRenderer } from 'electron';
import { createIpcChannel, createStudioShell } from './studio-bridge.js';

// Built by Vite into one self-contained CommonJS file (dist/preload/preload.cjs): a sandboxed preload
// can require nothing but 'electron'.
// The channel, not a ready StudioApi: the page builds that itself, so errors keep kind, where and reason
// (the contextBridge copies only a thrown error's message).
contextBridge.exposeInMainWorld('studioChannel', createIpcChannel(ipcRenderer));
contextBridge.exposeInMainWorld('studioShell', createStudioShell(ipcRenderer));
