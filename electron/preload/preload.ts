import { contextBridge, ipcRenderer } from 'electron';
import { createIpcStudio, createStudioShell } from './studio-bridge.js';

// Built by Vite into one self-contained CommonJS file (dist/preload/preload.cjs): a sandboxed preload
// can require nothing but 'electron'.
contextBridge.exposeInMainWorld('studio', createIpcStudio(ipcRenderer));
contextBridge.exposeInMainWorld('studioShell', createStudioShell(ipcRenderer));
