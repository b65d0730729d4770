import type { UploadRef } from '../common/api/index.js';
import { InputError } from '../common/errors.js';

/** An upload id is resolved by the browser-mode server that received the file (server/file-inputs.ts), never by the host. */
export function unresolvedUpload(input: UploadRef): never {
  throw new InputError(`upload ${input.upload}: an uploaded file is known only to the browser-mode server that received it (parity serve); send its bytes or path here`, input.upload);
}
