// The ocr suite's worker: TypeScript through tsx's loader, registered in this thread.
import { register } from 'tsx/esm/api';

register();
await import('./ocr-worker.ts');
