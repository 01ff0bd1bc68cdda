import type { GpxPoints } from './types.ts';

// The points' columns as the GPX reader fills them: one growing Float64Array per value.
export class Columns {
  length = 0;
  private capacity = 1024;
  latitude = new Float64Array(this.capacity);
  longitude = new Float64Array(this.capacity);
  elevation = new Float64Array(this.capacity);
  time = new Float64Array(this.capacity);
  heartRate = new Float64Array(this.capacity);
  cadence = new Float64Array(this.capacity);
  power = new Float64Array(this.capacity);
  temperature = new Float64Array(this.capacity);

  push(
    latitude: number,
    longitude: number,
    elevation: number,
    time: number,
    heartRate: number,
    cadence: number,
    power: number,
    temperature: number,
  ): void {
    if (this.length === this.capacity) {
      this.capacity *= 2;
      for (const key of [
        'latitude',
        'longitude',
        'elevation',
        'time',
        'heartRate',
        'cadence',
        'power',
        'temperature',
      ] as const) {
        const grown = new Float64Array(this.capacity);
        grown.set(this[key]);
        this[key] = grown;
      }
    }
    const i = this.length++;
    this.latitude[i] = latitude;
    this.longitude[i] = longitude;
    this.elevation[i] = elevation;
    this.time[i] = time;
    this.heartRate[i] = heartRate;
    this.cadence[i] = cadence;
    this.power[i] = power;
    this.temperature[i] = temperature;
  }

  finish(): GpxPoints {
    const n = this.length;
    return {
      length: n,
      latitude: this.latitude.slice(0, n),
      longitude: this.longitude.slice(0, n),
      elevation: this.elevation.slice(0, n),
      time: this.time.slice(0, n),
      heartRate: this.heartRate.slice(0, n),
      cadence: this.cadence.slice(0, n),
      power: this.power.slice(0, n),
      temperature: this.temperature.slice(0, n),
    };
  }
}
