// Change notices reach the consoles first, then each subscriber of the changed resource, and no other.
import { describe, expect, it } from 'vitest';
import { changeNotices } from './changes';

describe('change notices', () => {
  it('are published, then heard by the subscribers of that resource only, with the client', () => {
    const heard: string[] = [];
    const publish = changeNotices(
      (clientId, destination) => heard.push(`publish ${clientId} ${destination}`),
      [
        { resources: ['doors', 'controllers'], hear: (c) => heard.push(`scopes ${c}`) },
        { resources: ['doors'], hear: (c) => heard.push(`schedules ${c}`) },
        { resources: ['logicalBlocks'], hear: (c) => heard.push(`logic ${c}`) },
      ],
    );
    publish(3, '/changes/doors', {});
    publish(4, '/changes/identities', {});
    publish(5, '/alarms', {}); // not a change notice
    publish(6, '/changes/logicalBlocks', {});
    expect(heard).toEqual([
      'publish 3 /changes/doors',
      'scopes 3',
      'schedules 3',
      'publish 4 /changes/identities',
      'publish 5 /alarms',
      'publish 6 /changes/logicalBlocks',
      'logic 6',
    ]);
  });
});
