// Card formats live in the contract (contract/cardFormat.ts): the server decodes swipes with them and the card
// format form tests a raw value with the same code.
export * from '../../contract/cardFormat';
