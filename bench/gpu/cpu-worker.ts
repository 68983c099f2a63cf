// Entry of the CPU thumbnail worker threads (a bundle of its own, so workers never load Dawn).
import { runWorkerIfChild } from './cpu-thumbnail.js';

runWorkerIfChild();
