import { expect, test } from '@playwright/test';

test.describe('a group', () => {
  test('fails once, then passes', ({}, info) => {
    expect(info.retry).toBe(1);
  });
});
test('passes at once', () => {
  expect(1 + 1).toBe(2);
});
