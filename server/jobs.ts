/**
 * Background work of a server process. Each job keeps no state of its own
 * beyond its timer: whatever it works on is claimed in the database, so any
 * number of processes can run the same jobs against one database.
 */
import { reminderDelivery } from './jobs/reminder-delivery.js';
import type { Services } from './services.js';

export interface Job {
  name: string;
  /** Starts the job; returns a function that stops it and waits for work in progress. */
  start(services: Services, log: (message: string) => void): () => Promise<void>;
}

export const jobs: Job[] = [reminderDelivery];

export function startJobs(services: Services, log: (message: string) => void): () => Promise<void> {
  const stops = jobs.map((job) => job.start(services, log));
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
