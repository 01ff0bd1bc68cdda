declare const messages: Readonly<Record<string, readonly object[]>>;
export default messages;
