// Generator 2 of docs/deals.md in Node.js, with nothing but Node's own crypto: prints the cards a TP2
// or TH2 code deals. Written from the docs alone; the Python tests compare its output with the engine's.
//   node generator2.mjs TP2-E-AAAQEAYEAUDAOCAJBIFQYDIOB4Y
//   node generator2.mjs TH2-AAAQEAYEAUDAOCAJBIFQYDIOB4Y 3      (the hands of rounds 1 to 3)
import { createHmac } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const BASE = [..."CDHS"].flatMap((suit) => RANKS.map((rank) => rank + suit));

function seedOf(text) {
  const values = [...text].map((c) => ALPHABET.indexOf(c));
  if (values.length !== 27 || values.includes(-1)) throw new Error("27 characters A-Z, 2-7");
  let sum = 0;
  values.slice(0, 26).reverse().forEach((v, i) => {
    const p = v * (i % 2 === 0 ? 2 : 1);
    sum += Math.floor(p / 32) + (p % 32);
  });
  if ((32 - (sum % 32)) % 32 !== values[26]) throw new Error("the check character does not fit");
  let bits = 0n;
  for (const v of values.slice(0, 26)) bits = (bits << 5n) | BigInt(v);
  bits >>= 2n; // 130 bits spelled, the last two zero
  return Buffer.from(bits.toString(16).padStart(32, "0"), "hex");
}

function deck(seed, label, cards = BASE) {
  const out = [...cards];
  let block = 0n;
  let words = [];
  const next = () => {
    if (words.length === 0) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(block++);
      const digest = createHmac("sha256", seed)
        .update(Buffer.concat([Buffer.from(label, "ascii"), Buffer.from([0]), counter]))
        .digest();
      words = [0, 8, 16, 24].map((at) => digest.readBigUInt64BE(at));
    }
    return words.shift();
  };
  for (let i = out.length - 1; i > 0; i--) {
    const k = BigInt(i + 1);
    const limit = (1n << 64n) - ((1n << 64n) % k);
    let x;
    do x = next(); while (x >= limit);
    const j = Number(x % k);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const [code, rounds = "1"] = process.argv.slice(2);
const text = (code ?? "").toUpperCase();
let found;
if ((found = text.match(/^TP2-([EC])-([A-Z2-7]{27})(?:-([A-Z]+))?$/))) {
  const joker = (found[3] ?? "").includes("J");
  const emptyDiscard = (found[3] ?? "").includes("W");
  const cards = deck(seedOf(found[2]), "TP2 deal", joker ? [...BASE, "JK"] : BASE);
  console.log("tableau: " + cards.slice(0, 28).join(" "));
  console.log("discard: " + (emptyDiscard ? "-" : cards[28]));
  console.log("stock: " + cards.slice(emptyDiscard ? 28 : 29).join(" "));
} else if ((found = text.match(/^TH2-([A-Z2-7]{27})$/))) {
  const seed = seedOf(found[1]);
  for (let r = 1; r <= Number(rounds); r++) {
    const cards = deck(seed, `TH2 round ${r}`);
    for (let s = 0; s < 4; s++) {
      console.log(`round ${r} seat ${s}: ` + cards.slice(13 * s, 13 * s + 13).sort().join(" "));
    }
  }
} else {
  console.error("usage: node generator2.mjs TP2-E-… | TH2-… [rounds]");
  process.exit(2);
}
