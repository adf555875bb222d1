#!/usr/bin/env node
// Template: a JavaScript implementation of `geojson.parse` for graticule's runner (Node).
//
// Copy this file, replace `parse` with your parser and `digest` with a walk of your model,
// and point a manifest (manifest.json beside this file) at it. The runner starts
// `node geojson_parse.js --dataset PATH` and speaks the external protocol on stdin/stdout:
// `ready`; `digest` -> `digest features=F positions=P properties=Q checksum=HEX`;
// `elements` -> `element LOCATION<tab>VALUE` lines, then `end` (asked only when the digest
// differs from Graticule's, so the runner can name the first place the results part);
// `run N` -> `ns T`; `quit`. See Benchmarks/Templates/README.md.
'use strict';
const fs = require('fs');
const readline = require('readline');

// ---- The result digest (Workloads' ResultDigests article) -----------------------------
const MASK = (1n << 64n) - 1n;
function elementHash(bytes) {
    let h = 0xcbf29ce484222325n;
    for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & MASK;
    let z = (h + 0x9e3779b97f4a7c15n) & MASK;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
}
function f64(x) {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(x === 0 ? 0 : x);
    return b;
}
function u32(n) { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; }
function text(s) { const b = Buffer.from(s, 'utf8'); return Buffer.concat([u32(b.length), b]); }
function value(v) {
    if (v === null) return Buffer.from('n');
    if (typeof v === 'boolean') return Buffer.from(v ? 't' : 'f');
    if (typeof v === 'number') return Buffer.concat([Buffer.from('d'), f64(v)]);
    if (typeof v === 'string') return Buffer.concat([Buffer.from('s'), text(v)]);
    if (Array.isArray(v)) return Buffer.concat([Buffer.from('a'), u32(v.length), ...v.map(value)]);
    const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
    return Buffer.concat([Buffer.from('o'), u32(keys.length), ...keys.map(k => Buffer.concat([text(k), value(v[k])]))]);
}
function digest(doc) {
    const counts = { features: 0, positions: 0, properties: 0 };
    let sum = 0n;
    const positions = c => {
        if (!Array.isArray(c)) return;
        if (c.length >= 2 && typeof c[0] === 'number') {
            counts.positions++;
            sum = (sum + elementHash(Buffer.concat([Buffer.from('c'), f64(c[0]), f64(c[1])]))) & MASK;
        } else c.forEach(positions);
    };
    const geometry = g => {
        if (!g || typeof g !== 'object') return;
        positions(g.coordinates);
        (g.geometries || []).forEach(geometry);
    };
    const feature = f => {
        counts.features++;
        geometry(f.geometry);
        for (const [k, v] of Object.entries(f.properties || {})) {
            counts.properties++;
            sum = (sum + elementHash(Buffer.concat([Buffer.from('p'), text(k), value(v)]))) & MASK;
        }
    };
    if (doc.type === 'FeatureCollection') (doc.features || []).forEach(feature);
    else if (doc.type === 'Feature') feature(doc);
    else geometry(doc);
    return Object.entries(counts).map(([k, v]) => k + '=' + v).join(' ') + ' checksum=' + sum.toString(16).padStart(16, '0');
}

// ---- Located elements (the answer to `elements`), in the text Graticule writes ----------
// A number as Graticule writes it: the shortest round-trip digits, plain from 1e-4 up to
// 1e16 (with `.0` for whole numbers), otherwise with an exponent of at least two digits.
function numberText(x) {
    if (Object.is(x, -0)) return '-0.0';
    const [m, e] = x.toExponential().split('e');
    const exp = parseInt(e, 10);
    const sign = m.startsWith('-') ? '-' : '';
    const digits = m.replace('-', '').replace('.', '');
    if (exp >= -4 && exp < 16) {
        if (exp < 0) return sign + '0.' + '0'.repeat(-exp - 1) + digits;
        return sign + digits.slice(0, exp + 1).padEnd(exp + 1, '0') + '.' + (digits.slice(exp + 1) || '0');
    }
    const mantissa = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    return sign + mantissa + 'e' + (exp < 0 ? '-' : '+') + String(Math.abs(exp)).padStart(2, '0');
}
function quoted(s) {
    const esc = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0' };
    let out = '"';
    for (const ch of s) {
        const c = ch.codePointAt(0);
        out += esc[ch] || (c < 0x20 || c === 0x7f ? '\\u{' + c.toString(16).toUpperCase().padStart(2, '0') + '}' : ch);
    }
    return out + '"';
}
function valueText(v) {
    if (v === null) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number') return numberText(v);
    if (typeof v === 'string') return quoted(v);
    if (Array.isArray(v)) return '[' + v.map(valueText).join(',') + ']';
    const keys = Object.keys(v).sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
    return '{' + keys.map(k => quoted(k) + ':' + valueText(v[k])).join(',') + '}';
}
function located(doc) {
    const lines = [];
    let featureIndex = -1, positionIndex = 0;
    const pad = n => String(n).padStart(8, '0');
    const place = () => featureIndex < 0 ? 'document' : 'feature ' + pad(featureIndex);
    const positions = c => {
        if (!Array.isArray(c)) return;
        if (c.length >= 2 && typeof c[0] === 'number') {
            lines.push(place() + ' position ' + pad(positionIndex++) + '\t' + numberText(c[0]) + ' ' + numberText(c[1]));
        } else c.forEach(positions);
    };
    const geometry = g => {
        if (!g || typeof g !== 'object') return;
        (g.geometries || []).forEach(geometry);
        positions(g.coordinates);
    };
    const feature = f => {
        featureIndex++;
        positionIndex = 0;
        geometry(f.geometry);
        for (const [k, v] of Object.entries(f.properties || {})) lines.push(place() + ' properties.' + k + '\t' + valueText(v));
    };
    if (doc.type === 'FeatureCollection') (doc.features || []).forEach(feature);
    else if (doc.type === 'Feature') feature(doc);
    else geometry(doc);
    return lines.sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}

// ---- The implementation under test ------------------------------------------------------
function parse(text) { return JSON.parse(text); }

const args = process.argv.slice(2);
if (args.length !== 2 || args[0] !== '--dataset') {
    console.log('error usage: geojson_parse.js --dataset PATH');
    process.exit(2);
}
const data = fs.readFileSync(args[1], 'utf8');
parse(data); // fail at setup, not while timing
console.log('ready');
let sink = 0;
readline.createInterface({ input: process.stdin, terminal: false }).on('line', line => {
    const cmd = line.trim().split(/\s+/);
    if (cmd[0] === 'quit') process.exit(sink < 0 ? 1 : 0);
    else if (cmd[0] === 'digest') console.log('digest ' + digest(parse(data)));
    else if (cmd[0] === 'elements') {
        process.stdout.write(located(parse(data)).map(e => 'element ' + e + '\n').join(''));
        console.log('end');
    }
    else if (cmd[0] === 'run' && cmd.length === 2) {
        const n = parseInt(cmd[1], 10);
        const t0 = process.hrtime.bigint();
        for (let i = 0; i < n; i++) sink += parse(data) ? 1 : 0;
        console.log('ns ' + (process.hrtime.bigint() - t0).toString());
    } else {
        console.log('error unexpected command ' + JSON.stringify(line));
        process.exit(2);
    }
});
