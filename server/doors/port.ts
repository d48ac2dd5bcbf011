// The hardware port: what the server's access rules, door commands and logic ask of the doors, controllers and
// outputs out there. The simulator (server/simulator/hardware.ts) implements it; a controller driver would too. The
// rooms that command doors (server/access, server/logic, server/http/doors.ts) type their hardware as this port,
// never as the simulator.
import type { DoorCommand, Event, Sentence } from '../../contract';
import type { Explanation } from '../../contract/decision';
import type { AccessIndexes } from '../access/index';

/** What the hardware refuses: a door, output or input that is not there (404), a command that makes no sense for
 *  the door's state (409), a request that names no target (400: `field` is the request's field it needs). The HTTP
 *  rooms answer it with its status, a 400 with a violation of that field. */
export class HardwareError extends Error {
  /** the sentence's key and values, when the message is a sentence with values (a door command refused) */
  readonly code?: string;
  readonly values?: Sentence['values'];
  constructor(
    public status: 400 | 404 | 409,
    said: string | Sentence,
    readonly field?: string,
  ) {
    super(typeof said === 'string' ? said : said.message);
    if (typeof said !== 'string') {
      this.code = said.code;
      this.values = said.values;
    }
  }
}

/** Who a door command or an output's pulse is by, said in its event: a person's user name as it is, or what acted (a
 *  schedule, an override, a threat level, a logical block) as a sentence with its key (issue 48: contract sentenceValue). */
export type Actor = string | Sentence;

export interface HardwarePort {
  /** The access indexes swipes are decided on (change notices call `access.changed(clientId)`). */
  readonly access: AccessIndexes;
  /**
   * An operator's (or a schedule's, a threat level's, a logical block's) door command on the door's strike: commands
   * of one door run in arrival order and the latest wins; a command that makes no sense for the door's state is
   * refused (HardwareError 409) unless `force` is given. Resolves with the event it recorded.
   */
  command(clientId: number, doorId: number, cmd: DoorCommand, actor: Actor, opts?: { force?: boolean }): Promise<Event>;
  /** An output switched on for its pulse time (0: held on); `by` says who in the event. */
  pulseOutput(clientId: number, outputId: number, by: Actor): Promise<Event>;
  /** "Why?": a stored swipe event decided again against the current index (null: not a swipe of this tenant). */
  explain(clientId: number, eventId: number): Promise<Explanation | null>;
  /** An operator forgave one identity (its presence row is gone): the live state follows. */
  forgiven(clientId: number, identityId: number): void;
  /** Resolves when every door's queued commands have finished. */
  settled(): Promise<void>;
}

/** The test hook of a port whose momentary relocks run on timers: the relocks due within `ms` happen now. */
export interface RelockHook {
  fastForward(ms: number): Promise<number>;
}
