import { GeoJsonSchema, ProgramDataSchema, isForbiddenZone } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import { DEMO_MACHINES, DEMO_TIME_SCALE } from '../src/demo-fleet';
import { normaliseAngle, polygonContains, positionAt } from '../src/geo';
import { designFlow } from '../src/irrigation';
import { PivotArm } from '../src/pivot-arm';
import { createRandom } from '../src/random';

const MINUTE_MS = 60_000;

/** A demo machine's arm as the fleet runs it: its own flow, the pivot defaults, the demo's time scale. */
function demoArm(machine: (typeof DEMO_MACHINES)[number]) {
  const spec = {
    centre: machine,
    armLength: machine.armLength,
    topSpeed: 3,
    flow: machine.flow,
    pressure: 2.5,
    timeScale: DEMO_TIME_SCALE,
    alarmChancePerHour: 0,
    pressureSafetyDelayMs: 30_000,
  };
  const program = { ...machine.program, uploadedAt: 0 };
  return new PivotArm(spec, createRandom(1), { angle: 0, status: 'front', program });
}

function areaFeatures(areaMap: unknown) {
  const parsed = GeoJsonSchema.parse(areaMap);
  if (parsed.type !== 'FeatureCollection') throw new Error('The area map should be a feature collection');
  return parsed.features.map(({ geometry, properties }) => {
    if (geometry?.type !== 'Polygon') throw new Error('Every area should be a polygon');
    return { rings: geometry.coordinates, properties: properties ?? {} };
  });
}

describe('demo fleet', () => {
  it('has five machines named in Polish on Wielkopolska farmland, arms of 250–550 m', () => {
    expect(DEMO_MACHINES.map((machine) => machine.id)).toEqual([
      'PIVOT-01',
      'PIVOT-02',
      'PIVOT-03',
      'PIVOT-04',
      'PIVOT-05',
    ]);
    expect(new Set(DEMO_MACHINES.map((machine) => machine.name)).size).toBe(5);
    expect(DEMO_MACHINES.map((machine) => machine.name)).toContain('Łąka północna');
    for (const machine of DEMO_MACHINES) {
      expect(machine.lat).toBeGreaterThanOrEqual(52.1);
      expect(machine.lat).toBeLessThanOrEqual(52.4);
      expect(machine.lng).toBeGreaterThanOrEqual(16.8);
      expect(machine.lng).toBeLessThanOrEqual(17.5);
      expect(machine.armLength).toBeGreaterThanOrEqual(250);
      expect(machine.armLength).toBeLessThanOrEqual(550);
    }
  });

  it('pumps what real pivots of their size do: the flow of their circle at the design capacity', () => {
    for (const machine of DEMO_MACHINES) {
      expect(machine.flow, machine.id).toBeCloseTo(designFlow(machine.armLength), -1);
      // Real pivots pump roughly 0.7–1.1 l/s per hectare: 2.5–4 m³/h per hectare.
      const perHectare = machine.flow / ((Math.PI * machine.armLength ** 2) / 10_000);
      expect(perHectare, machine.id).toBeGreaterThan(2.5);
      expect(perHectare, machine.id).toBeLessThan(4);
    }
    const pivot01 = DEMO_MACHINES.find((machine) => machine.id === 'PIVOT-01')!;
    expect(pivot01.armLength).toBe(420);
    expect(pivot01.flow).toBeGreaterThanOrEqual(150);
    expect(pivot01.flow).toBeLessThanOrEqual(300);
  });

  it('waters a few mm to 30 mm on a full circle at the speed it runs, and a realistic day in the watermap', () => {
    for (const machine of DEMO_MACHINES) {
      const arm = demoArm(machine);
      // Round the circle once at the demo's speed, in steps of a real minute (front turns clockwise).
      let turned = 0;
      const sweeps = [];
      const flows = [];
      while (turned < 360) {
        const before = arm.angle;
        sweeps.push(...arm.advance(MINUTE_MS));
        turned += normaliseAngle(arm.angle - before);
        if (arm.plan().watering) flows.push(arm.readings().flow);
      }
      const wateredDegrees = sweeps.reduce((sum, sweep) => sum + Math.abs(sweep.sweptDegrees), 0);
      const meanDepth =
        sweeps.reduce((sum, sweep) => sum + sweep.depthMm * Math.abs(sweep.sweptDegrees), 0) / wateredDegrees;
      expect(meanDepth, machine.id).toBeGreaterThanOrEqual(3);
      expect(meanDepth, machine.id).toBeLessThanOrEqual(30);
      // The server counts what the machine reports, flow × real time: a real day is a real day's water.
      const flow = Math.max(...flows);
      expect(flow, machine.id).toBeGreaterThan(machine.flow * 0.97);
      expect(flow, machine.id).toBeLessThan(machine.flow * 1.03);
      const dayDepthMm = ((flow * 24) / (Math.PI * machine.armLength ** 2)) * 1000;
      expect(dayDepthMm, machine.id).toBeGreaterThan(5);
      expect(dayDepthMm, machine.id).toBeLessThan(10);
    }
  });

  it('maps each field around its circle, with one to three crops inside', () => {
    for (const machine of DEMO_MACHINES) {
      const features = areaFeatures(machine.areaMap);
      const [field, ...crops] = features;
      expect(field!.properties).toEqual({ kind: 'field', name: machine.name });
      for (let bearing = 0; bearing < 360; bearing += 5) {
        expect(polygonContains(field!.rings, positionAt(machine, bearing, machine.armLength))).toBe(true);
      }
      expect(crops.length).toBeGreaterThanOrEqual(1);
      expect(crops.length).toBeLessThanOrEqual(3);
      for (const crop of crops) {
        expect(crop.properties.kind).toBe('crop');
        expect(['maize', 'potatoes', 'sugar beet', 'wheat']).toContain(crop.properties.crop);
        for (const position of crop.rings[0]!) {
          expect(polygonContains(field!.rings, position)).toBe(true);
        }
      }
    }
  });

  it('gives each machine a program of two to four sectors, one machine with a forbidden zone', () => {
    const forbiddenZones = DEMO_MACHINES.map((machine) => {
      const sectors = ProgramDataSchema.parse(machine.program.programData).features;
      expect(sectors.length).toBeGreaterThanOrEqual(2);
      expect(sectors.length).toBeLessThanOrEqual(4);
      return sectors.filter(isForbiddenZone).length;
    });
    expect(forbiddenZones.filter((count) => count > 0)).toEqual([1]);
  });
});
