import { CROP_KEYS, GeoJsonSchema, ProgramDataSchema, SOIL_TEXTURES, isForbiddenZone } from '@pivot/contracts';
import { describe, expect, it } from 'vitest';
import {
  DEMO_ELEVATION_M,
  DEMO_MACHINES,
  type DemoMachine,
  demoProbes,
  demoProgramOn,
  harvestAfter,
  inSeason,
  lastEmergence,
} from '../src/demo-farm';
import { DEMO_TIME_SCALE } from '../src/demo-fleet';
import { simulateDemoHistory } from '../src/demo-history';
import { wedgeProgram } from '../src/fleet-layout';
import { normaliseAngle, polygonContains, positionAt } from '../src/geo';
import { PivotArm } from '../src/pivot-arm';
import { createRandom } from '../src/random';
import { SoilMoisture, WETTEST_ABOVE_FIELD_CAPACITY } from '../src/soil-sensor';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** A demo machine's arm as the fleet runs it: its own flow and top speed, the demo's time scale. */
function demoArm(machine: DemoMachine, program = machine.program) {
  const spec = {
    centre: machine,
    armLength: machine.armLength,
    topSpeed: machine.topSpeed,
    flow: machine.flow,
    pressure: 2.5,
    timeScale: DEMO_TIME_SCALE,
    alarmChancePerHour: 0,
    pressureSafetyDelayMs: 30_000,
  };
  return new PivotArm(spec, createRandom(1), { angle: 0, status: 'front', program: { ...program, uploadedAt: 0 } });
}

/** The circle's area, m². */
const circle = (machine: DemoMachine) => Math.PI * machine.armLength ** 2;

function areaFeatures(areaMap: unknown) {
  const parsed = GeoJsonSchema.parse(areaMap);
  if (parsed.type !== 'FeatureCollection') throw new Error('The area map should be a feature collection');
  return parsed.features.map(({ geometry, properties }) => {
    if (geometry?.type !== 'Polygon') throw new Error('Every area should be a polygon');
    return { rings: geometry.coordinates, properties: properties ?? {} };
  });
}

const isoDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);

describe('demo fleet', () => {
  it('has five machines named in Polish on irrigated farmland of the Free State, arms of 250–550 m', () => {
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
      // Around Bothaville: the southern hemisphere, an hour east of Poland's time zone.
      expect(machine.lat).toBeGreaterThanOrEqual(-27.6);
      expect(machine.lat).toBeLessThanOrEqual(-27.1);
      expect(machine.lng).toBeGreaterThanOrEqual(26.4);
      expect(machine.lng).toBeLessThanOrEqual(27);
      expect(machine.armLength).toBeGreaterThanOrEqual(250);
      expect(machine.armLength).toBeLessThanOrEqual(550);
    }
  });

  it('pumps what real pivots of their size do: 0.8–1.2 l/s per hectare', () => {
    for (const machine of DEMO_MACHINES) {
      const litresPerSecondPerHectare = machine.flow / 3.6 / (circle(machine) / 10_000);
      expect(litresPerSecondPerHectare, machine.id).toBeGreaterThanOrEqual(0.8);
      expect(litresPerSecondPerHectare, machine.id).toBeLessThanOrEqual(1.2);
    }
    expect(DEMO_MACHINES[0]!.flow).toBe(180);
  });

  it('turns at 100 % in the time its top speed takes round its circle, 15–20 h for 400 m, applying 3–15 mm', () => {
    for (const machine of DEMO_MACHINES) {
      // A rate below what 100 % applies: the arm runs at 100 % all round.
      const fullSpeed = wedgeProgram(machine, machine.armLength, 'Full speed', [
        { name: 'All', rate: 0.1, from: 0, to: 360 },
      ]);
      const arm = demoArm(machine, fullSpeed);
      expect(arm.plan().speedPercent).toBe(100);
      const turnMinutes = (2 * Math.PI * machine.armLength) / machine.topSpeed;
      let turned = 0;
      let water = 0;
      for (let minute = 0; minute < Math.round(turnMinutes); minute += 1) {
        const before = arm.angle;
        for (const sweep of arm.advance(MINUTE_MS)) water += sweep.depthMm * Math.abs(sweep.sweptDegrees);
        turned += normaliseAngle(arm.angle - before);
      }
      expect(turned, machine.id).toBeCloseTo(360 * (Math.round(turnMinutes) / turnMinutes), 6);
      const hoursPer400m = (turnMinutes / 60) * (400 / machine.armLength);
      expect(hoursPer400m, machine.id).toBeGreaterThanOrEqual(15);
      expect(hoursPer400m, machine.id).toBeLessThanOrEqual(20);
      // The depth of a turn at 100 %: the flow of a turn's time over the circle.
      const depthAtFullSpeed = ((machine.flow * turnMinutes) / 60 / circle(machine)) * 1000;
      expect(water / turned, machine.id).toBeCloseTo(depthAtFullSpeed, 6);
      expect(depthAtFullSpeed, machine.id).toBeGreaterThanOrEqual(3);
      expect(depthAtFullSpeed, machine.id).toBeLessThanOrEqual(15);
    }
  });

  it('runs each sector at the speed that applies its rate, as its reports tell: flow × time over the swept area', () => {
    for (const machine of DEMO_MACHINES) {
      const arm = demoArm(machine);
      const turnHours = (2 * Math.PI * machine.armLength) / machine.topSpeed / 60;
      const depthAtFullSpeed = ((machine.flow * turnHours) / circle(machine)) * 1000;
      for (let minute = 0; minute < 600; minute += 1) {
        const { speed } = arm.readings();
        const before = arm.angle;
        const sweeps = arm.advance(MINUTE_MS);
        if (sweeps.length === 0) continue;
        const sweptAtFullSpeed = (normaliseAngle(arm.angle - before) * 100) / speed;
        const learned = ((machine.flow / 60) * 1000) / ((sweptAtFullSpeed / 360) * circle(machine));
        expect(learned, machine.id).toBeCloseTo(depthAtFullSpeed, 6);
      }
    }
  });

  it('maps each field around its circle, with one to three crop areas of the advice’s crops inside', () => {
    for (const machine of DEMO_MACHINES) {
      const features = areaFeatures(machine.areaMap);
      const [field, ...crops] = features;
      expect(field!.properties).toEqual({ kind: 'field', name: machine.name });
      for (let bearing = 0; bearing < 360; bearing += 5) {
        expect(polygonContains(field!.rings, positionAt(machine, bearing, machine.armLength))).toBe(true);
      }
      expect(crops.map((crop) => crop.properties.name)).toEqual(machine.cropAreas.map((area) => area.name));
      expect(crops.length).toBeGreaterThanOrEqual(1);
      expect(crops.length).toBeLessThanOrEqual(3);
      for (const crop of crops) {
        expect(crop.properties.kind).toBe('crop');
        expect(CROP_KEYS).toContain(crop.properties.crop);
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

  it('puts two probes in each crop area, together, in the area’s soil', () => {
    const probes = demoProbes(DEMO_MACHINES, '');
    for (const machine of DEMO_MACHINES) {
      const own = probes.filter((probe) => probe.machineId === machine.id);
      expect(own).toHaveLength(2 * machine.cropAreas.length);
      const crops = areaFeatures(machine.areaMap).slice(1);
      machine.cropAreas.forEach((cropArea, index) => {
        for (const probe of own.slice(2 * index, 2 * index + 2)) {
          expect(polygonContains(crops[index]!.rings, [probe.lng, probe.lat])).toBe(true);
          expect(probe.soil).toEqual(SOIL_TEXTURES[cropArea.soil]);
        }
      });
    }
  });
});

/** The first and the 15th of every month of a year, and the day an agronomist looked. */
const DAYS = [
  ...Array.from({ length: 12 }, (_, month) => `2026-${String(month + 1).padStart(2, '0')}-01`),
  ...Array.from({ length: 12 }, (_, month) => `2026-${String(month + 1).padStart(2, '0')}-15`),
  '2026-11-28',
];
/** The Free State's summer crops (October to April) and its irrigated winter wheat (May to October). */
const SUMMER_CROPS = ['maize-grain', 'potato', 'soybean'];

describe('demo farm calendar', () => {
  it.each(DAYS)('on %s some crop is in the field, each emerged within the year, in its southern season', (day) => {
    const month = Number(day.slice(5, 7));
    const inField = DEMO_MACHINES.flatMap((machine) => machine.cropAreas).filter((area) => inSeason(area, day));
    expect(inField.length).toBeGreaterThan(0);
    for (const area of inField) {
      const emergence = lastEmergence(area, day);
      expect(emergence <= day).toBe(true);
      expect(Date.parse(day) - Date.parse(emergence)).toBeLessThan(365 * DAY_MS);
      expect(harvestAfter(area, emergence) >= day).toBe(true);
      if (SUMMER_CROPS.includes(area.crop)) expect([7, 8].includes(month), `${area.name} in ${day}`).toBe(false);
      else expect(month >= 5 && month <= 10, `${area.name} in ${day}`).toBe(true);
    }
  });

  it('has maize in its development stage in late November, and no wheat', () => {
    const day = '2026-11-28';
    const inField = DEMO_MACHINES.flatMap((machine) => machine.cropAreas).filter((area) => inSeason(area, day));
    const maize = inField.filter((area) => area.crop === 'maize-grain');
    expect(maize.length).toBeGreaterThan(0);
    for (const area of maize) {
      const days = (Date.parse(day) - Date.parse(lastEmergence(area, day))) / DAY_MS;
      // FAO-56 Table 11's maize: 30 days initial, then 40 of development, before the mid-season.
      expect(days).toBeGreaterThan(30);
      expect(days).toBeLessThanOrEqual(70);
    }
    expect(inField.some((area) => area.crop === 'spring-wheat')).toBe(false);
  });
});

describe('the demo program of a day', () => {
  it('leaves the crop areas with no crop in the field dry, and the others as they are', () => {
    const [pivot03, pivot04] = [DEMO_MACHINES[2]!, DEMO_MACHINES[3]!];
    const rates = (machine: DemoMachine, day: string) =>
      Object.fromEntries(
        demoProgramOn(machine, day).programData.features.map((feature) => [
          feature.properties.name,
          feature.properties.rate,
        ]),
      );
    // Late November: potatoes in the field, maize not yet sown (15.12); the power line stays forbidden.
    expect(rates(pivot03, '2026-11-28')).toEqual({
      'Ziemniaki A': 15,
      'Ziemniaki B': 22,
      Kukurydza: 0,
      'Linia energetyczna': -1,
    });
    expect(rates(pivot03, '2027-01-10')).toMatchObject({ 'Ziemniaki A': 15, Kukurydza: 14 });
    // The wheat harvested on 2 October is not watered; the soybean and potatoes are.
    expect(rates(pivot04, '2026-11-28')).toEqual({ Soja: 18, Ziemniaki: 15, Pszenica: 0 });
  });
});

describe('demo farm history', () => {
  // The last: a night when every machine had finished its turn (the demo started with none moving).
  const TIMES = [
    Date.UTC(2026, 10, 28, 22),
    Date.UTC(2027, 1, 15, 9),
    Date.UTC(2026, 6, 10, 15),
    Date.UTC(2026, 10, 29, 3, 20),
  ];

  it.each(TIMES.map((to) => [isoDay(to), to]))(
    'up to %s: probes within their soil, agreeing within their area',
    (_, to) => {
      const history = simulateDemoHistory(to);
      const probes = demoProbes(DEMO_MACHINES, '');
      expect(history.probes.map((probe) => probe.id)).toEqual(probes.map((probe) => probe.id));
      history.probes.forEach((probe, index) => {
        const soil = probes[index]!.soil!;
        expect(probe.moisture, probe.id).toBeGreaterThanOrEqual(soil.wiltingPoint * 100);
        expect(probe.moisture, probe.id).toBeLessThanOrEqual(soil.fieldCapacity * 100 + WETTEST_ABOVE_FIELD_CAPACITY);
      });
      // Two probes of an area: within 0.3 % of each other, 3 mm of depletion over a metre of roots.
      for (let index = 0; index < probes.length; index += 2) {
        expect(Math.abs(history.probes[index]!.moisture - history.probes[index + 1]!.moisture)).toBeLessThanOrEqual(
          0.3,
        );
      }
      // Each evening's reading of every probe, within its soil.
      const days = Math.floor((to - history.from) / DAY_MS);
      history.probes.forEach((probe, index) => {
        expect(probe.readings.length, probe.id).toBeGreaterThanOrEqual(days - 1);
        const soil = probes[index]!.soil!;
        for (const reading of probe.readings) {
          expect(new Date(reading.ts).getUTCHours()).toBe(21);
          expect(reading.moisture).toBeGreaterThanOrEqual(soil.wiltingPoint * 100);
          expect(reading.moisture).toBeLessThanOrEqual(soil.fieldCapacity * 100 + WETTEST_ABOVE_FIELD_CAPACITY);
        }
      });
      // It rained, and every crop in the field for over a month (past its initial stage) was watered.
      const today = isoDay(to);
      for (const [index, machine] of DEMO_MACHINES.entries()) {
        for (const area of machine.cropAreas.filter((cropArea) => inSeason(cropArea, today))) {
          const emergence = Date.parse(lastEmergence(area, today));
          expect(emergence).toBeGreaterThan(history.from);
          if (to - emergence < 30 * DAY_MS) continue;
          const watered = history.machines[index]!.reports.some((report) => report.ts > emergence && report.flow > 0);
          expect(watered, `${machine.id} ${area.name}`).toBe(true);
        }
      }
      expect(history.stations.every((station) => station.readings.some((reading) => reading.rain > 0))).toBe(true);
      // Whoever starts the demo sees a machine at work, its last report saying so.
      const moving = history.machines.filter((machine) => machine.motion !== 'stop');
      expect(moving.length).toBeGreaterThan(0);
      for (const machine of moving) expect(machine.reports.at(-1)!.status).toBe(machine.motion);
      // The highveld's stations say where they stand: their ET0 takes the farm's air pressure.
      expect(
        history.stations.every((station) =>
          station.readings.every((reading) => reading.elevation === DEMO_ELEVATION_M),
        ),
      ).toBe(true);
    },
  );

  it('reports passes 5 minutes apart, whose depth at 100 % is the machine’s, however long ago they were', () => {
    const history = simulateDemoHistory(TIMES[0]!);
    let learned = 0;
    for (const [index, machine] of DEMO_MACHINES.entries()) {
      const moving = history.machines[index]!.reports.filter((report) => report.status !== 'stop');
      for (let pair = 1; pair < moving.length; pair += 1) {
        const apart = moving[pair]!.ts - moving[pair - 1]!.ts;
        if (apart <= 5 * MINUTE_MS) expect(apart).toBe(5 * MINUTE_MS);
      }
      const turnHours = (2 * Math.PI * machine.armLength) / machine.topSpeed / 60;
      const depthAtFullSpeed = ((machine.flow * turnHours) / circle(machine)) * 1000;
      let water = 0;
      let sweptAtFullSpeed = 0;
      const reports = history.machines[index]!.reports;
      for (let pair = 1; pair < reports.length; pair += 1) {
        const [a, b] = [reports[pair - 1]!, reports[pair]!];
        // Pairs up to 10 minutes apart, as the server's learning and watermap take them.
        if (b.ts - a.ts > 10 * MINUTE_MS || a.status !== b.status || a.status === 'stop' || a.speed !== b.speed)
          continue;
        if (a.flow <= 0 || b.flow <= 0) continue;
        water += ((a.flow + b.flow) / 2) * ((b.ts - a.ts) / 3_600_000);
        // The turn the short way round, as the server's learning takes it.
        const turn = Math.abs(normaliseAngle(b.angle - a.angle + 180) - 180);
        sweptAtFullSpeed += ((turn * (100 / a.speed)) / 360) * circle(machine);
      }
      // Every machine that watered in its past has pairs to learn from, not only those watering lately.
      if (moving.length === 0) continue;
      learned += 1;
      const depth = (water / sweptAtFullSpeed) * 1000;
      expect(depth, machine.id).toBeGreaterThan(depthAtFullSpeed * 0.97);
      expect(depth, machine.id).toBeLessThan(depthAtFullSpeed * 1.03);
    }
    expect(learned).toBeGreaterThanOrEqual(4);
  });
});

describe('demo soils', () => {
  it.each(Object.entries(SOIL_TEXTURES))(
    'in %s, a probe stays between the wilting point and a little above field capacity',
    (_, soil) => {
      const random = createRandom(7);
      const moisture = new SoilMoisture(soil.fieldCapacity * 100, 600, soil);
      for (let hour = 0; hour < 24 * 120; hour += 1) {
        if (random.chance(0.03)) moisture.wet(random.between(1, 60));
        moisture.dry(1, random.between(0, 900));
        expect(moisture.moisture).toBeGreaterThanOrEqual(soil.wiltingPoint * 100);
        expect(moisture.moisture).toBeLessThanOrEqual(soil.fieldCapacity * 100 + WETTEST_ABOVE_FIELD_CAPACITY);
      }
    },
  );
});
