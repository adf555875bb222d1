#!/usr/bin/env node
// tile-cover (JavaScript, @mapbox/tile-cover 3.0.2) as an external implementation for
// graticule's runners. The library is the unmodified copy in ../shared/peers/tile-cover
// (GRATICULE_TILE_COVER overrides the folder); Debian's `nodejs` runs it.
//
//   node tilecover_js.js polygon|lines|points ZOOM --dataset PATH
//       the benchmark protocol (BenchKit's ExternalProgram): `ready`, then `run N` -> `ns T`,
//       `digest` -> `digest TEXT`, `elements` -> `element z/x/y`... `end`, `quit`. polygon/lines cover every polygon / line feature
//       at ZOOM one by one; points covers all points as one MultiPoint.
//   node tilecover_js.js check
//       exits 0 when tile-cover loads (the manifest's requirement probe).
//   node tilecover_js.js conform
//       the conformance protocol (Conformance's ExternalConformanceProgram) for the
//       tile-cover suite: each case is "MIN MAX\0GEOJSON\0FIXTURE"; the answer is the
//       implementation's cover at MAX, as `output B64` of sorted "z/x/y" lines.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

const peerDir = process.env.GRATICULE_TILE_COVER
    || path.join(__dirname, '..', '..', '..', 'shared', 'peers', 'tile-cover');

let cover;
try {
    cover = require(peerDir);
} catch (e) {
    console.log('error cannot load tile-cover from ' + peerDir + ': ' + e.message);
    process.exit(2);
}

function geometriesOf(doc) {
    if (doc.type === 'FeatureCollection') return doc.features.map(f => f.geometry).filter(Boolean);
    if (doc.type === 'Feature') return doc.geometry ? [doc.geometry] : [];
    return [doc];
}

// ---- The result digest (Workloads' ResultDigest, documented in its DocC article) ----------
// FNV-1a 64 over the element's bytes, finished by the SplitMix64 mixer; the checksum is the
// wrapping sum of the element hashes, so the order of the elements does not matter.
const MASK = (1n << 64n) - 1n;
function fnv1a(bytes) {
    let h = 0xcbf29ce484222325n;
    for (const b of bytes) {
        h ^= BigInt(b);
        h = (h * 0x100000001b3n) & MASK;
    }
    return h;
}
function mix(z) {
    z = (z + 0x9e3779b97f4a7c15n) & MASK;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
}
function tileElement(z, x, y) {
    // tag 't', then z (1 byte), x and y (4 bytes each, little-endian)
    const b = Buffer.alloc(10);
    b[0] = 0x74; b[1] = z; b.writeUInt32LE(x >>> 0, 2); b.writeUInt32LE(y >>> 0, 6);
    return b;
}
function tileDigest(tileLists) {
    let sum = 0n;
    let count = 0;
    for (const tiles of tileLists) {
        for (const t of tiles) {
            sum = (sum + mix(fnv1a(tileElement(t[2], t[0], t[1])))) & MASK;
            count++;
        }
    }
    return 'tiles=' + count + ' checksum=' + sum.toString(16).padStart(16, '0');
}

function bench(kind, zoom, datasetPath) {
    const doc = JSON.parse(fs.readFileSync(datasetPath, 'utf8'));
    const geoms = geometriesOf(doc);
    const limits = { min_zoom: zoom, max_zoom: zoom };
    let inputs;
    if (kind === 'polygon') {
        inputs = geoms.filter(g => g.type === 'Polygon' || g.type === 'MultiPolygon');
    } else if (kind === 'lines') {
        inputs = geoms.filter(g => g.type === 'LineString' || g.type === 'MultiLineString');
    } else if (kind === 'points') {
        const pts = [];
        for (const g of geoms) {
            if (g.type === 'Point') pts.push(g.coordinates);
            else if (g.type === 'MultiPoint') for (const c of g.coordinates) pts.push(c);
        }
        inputs = [{ type: 'MultiPoint', coordinates: pts }];
    } else {
        console.log('error unknown kind ' + kind + ' (polygon, lines or points)');
        process.exit(2);
    }
    const op = () => {
        let count = 0;
        for (const g of inputs) count += cover.tiles(g, limits).length;
        return count;
    };
    op(); // fail at setup, not while timing
    console.log('ready');
    let sink = 0;
    const rl = readline.createInterface({ input: process.stdin, terminal: false });
    rl.on('line', line => {
        const parts = line.trim().split(/\s+/);
        if (parts[0] === 'quit') { rl.close(); process.exit(sink === -1 ? 1 : 0); }
        else if (parts[0] === 'run' && parts.length === 2) {
            const n = parseInt(parts[1], 10);
            const t0 = process.hrtime.bigint();
            for (let i = 0; i < n; i++) sink += op();
            console.log('ns ' + (process.hrtime.bigint() - t0).toString());
        } else if (parts[0] === 'digest') {
            console.log('digest ' + tileDigest(inputs.map(g => cover.tiles(g, limits))));
        } else if (parts[0] === 'elements') {
            // The tiles as sorted z/x/y text, as Graticule lists them (asked when the digests differ).
            const lines = [];
            for (const g of inputs) for (const t of cover.tiles(g, limits)) lines.push(t[2] + '/' + t[0] + '/' + t[1]);
            lines.sort();
            console.log(lines.map(l => 'element ' + l).join('\n') + (lines.length ? '\n' : '') + 'end');
        } else {
            console.log('error unexpected command ' + JSON.stringify(line));
            process.exit(2);
        }
    });
}

function conform() {
    console.log('ready');
    const rl = readline.createInterface({ input: process.stdin, terminal: false });
    rl.on('line', line => {
        const parts = line.split(' ');
        if (parts[0] === 'quit') { rl.close(); process.exit(0); }
        if (parts[0] !== 'case' || parts.length < 4) { console.log('error unexpected command'); process.exit(2); }
        const suite = parts[1];
        if (suite !== 'tile-cover') { console.log('unsupported suite ' + suite); return; }
        const bytes = fs.readFileSync(parts.slice(3).join(' '));
        const first = bytes.indexOf(0);
        const second = bytes.indexOf(0, first + 1);
        const zooms = bytes.subarray(0, first).toString().split(' ').map(Number);
        let doc;
        try {
            doc = JSON.parse(bytes.subarray(first + 1, second).toString());
        } catch (e) {
            console.log('reject invalid ' + e.message.replace(/\n/g, ' '));
            return;
        }
        const maxZ = zooms[1];
        const seen = new Set();
        try {
            for (const g of geometriesOf(doc)) {
                for (const t of cover.tiles(g, { min_zoom: zooms[0], max_zoom: maxZ })) {
                    // merged parents (min_zoom < max_zoom) expanded to max_zoom
                    const k = maxZ - t[2];
                    for (let dx = 0; dx < (1 << k); dx++) {
                        for (let dy = 0; dy < (1 << k); dy++) {
                            seen.add(maxZ + '/' + (t[0] * (1 << k) + dx) + '/' + (t[1] * (1 << k) + dy));
                        }
                    }
                }
            }
        } catch (e) {
            console.log('reject fatal ' + e.message.replace(/\n/g, ' '));
            return;
        }
        const lines = Array.from(seen).sort().join('\n');
        console.log('output ' + Buffer.from(lines, 'utf8').toString('base64'));
    });
}

const args = process.argv.slice(2);
if (args[0] === 'check') {
    // The requirement probe: tile-cover loaded (above), nothing else to do.
    process.exit(0);
} else if (args[0] === 'conform') {
    conform();
} else if (args.length === 4 && args[2] === '--dataset') {
    bench(args[0], parseInt(args[1], 10), args[3]);
} else {
    console.log('error usage: tilecover_js.js polygon|lines|points ZOOM --dataset PATH | conform | check');
    process.exit(2);
}
