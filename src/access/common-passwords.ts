/**
 * Passwords that are long enough but guessed first (docs/access.md "Passwords"): a small bundled list of the
 * commonest long passwords, the words they are built on (a word followed by digits and symbols is the same
 * guess), keyboard walks, and one character repeated or counted up. Checked whenever someone chooses a password.
 */
const commonLong = [
  '123456789012',
  '1234567890123',
  '12345678901234',
  '123123123123',
  '111111111111',
  '000000000000',
  '1q2w3e4r5t6y',
  '1qaz2wsx3edc',
  'qwertyuiopas',
  'qwertyuiop12',
  'qwerty123456',
  'qwertyqwerty',
  'asdfghjkl123',
  'zxcvbnm12345',
  'passwordpassword',
  'password1234',
  'password12345',
  'password123456',
  'iloveyou1234',
  'administrator',
  'changeme1234',
  'letmeinletmein',
  'welcomewelcome',
  'trustno1trustno1',
  'abcdefghijkl',
  'abc123abc123',
  'abcd1234abcd',
  'football1234',
  'baseball1234',
  'superman1234',
  'princess1234',
  'sunshine1234',
  'starwars1234',
  'whatever1234',
  'correcthorsebatterystaple',
];

/** Words that, followed only by digits and symbols, make a common password. */
const commonWords = [
  'password',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'qwerty',
  'qwertyuiop',
  'azerty',
  'welcome',
  'letmein',
  'admin',
  'administrator',
  'iloveyou',
  'changeme',
  'secret',
  'monkey',
  'dragon',
  'master',
  'football',
  'sunshine',
  'princess',
  'athar',
  'syria',
  'damascus',
  'aleppo',
  'homs',
  'freedom',
  'hurriya',
  'allah',
  'mohammad',
  'muhammad',
];

const walks = [
  'qwertyuiopasdfghjklzxcvbnm',
  'abcdefghijklmnopqrstuvwxyz',
  '01234567890',
  '1qaz2wsx3edc4rfv5tgb',
];

const listed = new Set(commonLong);

/** Whether a password is one an attacker tries first; `username` counts as a common word for its owner. */
export function isCommonPassword(password: string, username?: string): boolean {
  const text = password.toLowerCase().normalize('NFKC');
  if (listed.has(text)) return true;
  if (new Set(text).size <= 2) return true;
  for (const walk of walks) {
    if (walk.includes(text) || [...walk].reverse().join('').includes(text)) return true;
  }
  const base = text.replace(/[\d\W_]+$/u, '').replace(/^[\d\W_]+/u, '');
  if (base.length === 0) return /^\d+$/.test(text) && isCounting(text);
  const words = username ? [...commonWords, username.toLowerCase()] : commonWords;
  if (words.includes(base)) return true;
  // A word typed twice ("welcomewelcome") is the same guess.
  const half = base.slice(0, base.length / 2);
  return base.length % 2 === 0 && half + half === base && words.includes(half);
}

/** Digits counting up or down by one ("2345678901234"). */
function isCounting(digits: string): boolean {
  for (const step of [1, 9]) {
    let ok = true;
    for (let i = 1; i < digits.length && ok; i++) {
      ok = (Number(digits[i - 1]) + step) % 10 === Number(digits[i]);
    }
    if (ok) return true;
  }
  return false;
}
