// The TOTP tests' clock (mfa.test.ts, sealing.test.ts): a code of a 30 s step, and a confirmation that survives a step
// ending while it is in flight.
import { generate } from 'otplib';
import { PERIOD_S } from './totp';

export const stepNow = () => Math.floor(Date.now() / 1000 / PERIOD_S);
export const codeOf = (secret: string, step: number) => generate({ secret, epoch: step * PERIOD_S });

/**
 * Sends the code of the step before now (the oldest the server takes, which leaves the current step for the next
 * sign-in). When a step ends between making the code and the server checking it (a loaded machine: it failed so in a
 * check CI), the code was two steps old there and refused: it is made again, once, for the new step.
 */
export async function sendPreviousStepCode<R extends { status: number }>(secret: string, send: (code: string) => Promise<R>): Promise<R> {
  const step = stepNow();
  const done = await send(await codeOf(secret, step - 1));
  if (done.status === 400 && stepNow() !== step) return send(await codeOf(secret, stepNow() - 1));
  return done;
}
