// The codec fuzz worker: serves cases to the harness (harness.ts), each run through target.ts's exercise.

import { exercise } from './target.js';
import { serve } from './worker-protocol.js';

serve(exercise);
