/**
 * Delivers due reminders: once at start, then every few seconds. Claims go
 * through the database (FOR UPDATE SKIP LOCKED), so any number of server
 * processes may run this job on one database, and a reminder that fell due
 * while no server ran is delivered by the next one to start.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { deliverDueReminders } from '../domain/reminders.js';
import type { Job } from '../jobs.js';

const BATCH = 100;

export function reminderDeliveryJob(options: { intervalMs: number }): Job {
  return {
    name: 'reminder-delivery',
    start(services, log) {
      const claimer = `${hostname()}:${process.pid}:${randomUUID()}`;
      let running: Promise<void> | null = null;
      let stopped = false;
      const drain = async () => {
        // A full batch means more may be due right now.
        while (!stopped) {
          const claimed = await deliverDueReminders(services.db, claimer, services.now(), BATCH, (reminder, error) =>
            log(`reminder ${reminder.id} could not be delivered and was closed: ${String(error)}`),
          );
          if (claimed < BATCH) return;
        }
      };
      const run = () => {
        if (running || stopped) return;
        running = drain()
          .catch((error: unknown) => log(`reminder delivery failed, will retry: ${String(error)}`))
          .finally(() => {
            running = null;
          });
      };
      run();
      const timer = setInterval(run, options.intervalMs);
      timer.unref();
      return async () => {
        stopped = true;
        clearInterval(timer);
        await running;
      };
    },
  };
}

export const reminderDelivery = reminderDeliveryJob({ intervalMs: 5000 });
