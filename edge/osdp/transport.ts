// The line: any byte duplex (a serial port, a test's pipe). `serialport` opens real ports: RS-485 adapters
// (/dev/ttyUSB*) and pseudo-terminals alike.
import { SerialPort } from 'serialport';

export interface ByteDuplex {
  write(data: Uint8Array): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'close', listener: (err?: Error | null) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'close', listener: (err?: Error | null) => void): unknown;
  /** changes the port's speed (serialport's `update`): the bus follows a reader moved to another speed (COMSET) */
  update?(options: { baudRate: number }, callback: (err: Error | null | undefined) => void): unknown;
  /** waits until what was written has left (serialport's `drain`): a PD changes its speed only after its COM reply */
  drain?(callback: (err: Error | null | undefined) => void): unknown;
}

/** OSDP's speeds (§4.1). */
export const BAUD_RATES = [9600, 19200, 38400, 57600, 115200, 230400] as const;

/** Opens a serial port 8N1 at `baudRate`; rejects with the system's reason. */
export function openSerial(path: string, baudRate = 9600): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    const port = new SerialPort({ path, baudRate, dataBits: 8, stopBits: 1, parity: 'none', autoOpen: false });
    port.open((err) => (err ? reject(err) : resolve(port)));
  });
}

export function closeSerial(port: SerialPort): Promise<void> {
  return new Promise((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve()));
}

/** Time on the wire of `bytes` at `baudRate`, 10 bits a byte (8N1), in ms. */
export const wireMs = (bytes: number, baudRate: number) => (bytes * 10 * 1000) / baudRate;
