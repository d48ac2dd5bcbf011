// Issue 48: the console's chunk is one script, and the browser evaluates a script's modules in one task. src/app/App.tsx
// imports the actor system's modules (the machines, the contract's schemas, the REST client) first and this module
// next: its top-level await ends that task here, and the chunk's other modules (the shell, the routes, the views'
// components) are evaluated in a task of their own. No task of the console's start over 50 ms of processor time.
import { nextTask } from './nextTask';

await nextTask();
