import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../src/db/client.ts';

/** Migrate a template database once; each test file gets a fresh copy of it (CREATE DATABASE ... TEMPLATE). */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL!;
  const template = `portolan_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const database = openPostgres(withDatabase(url, template), { max: 1 });
  await database.migrate();
  await database.close();
  project.provide('pgTemplateDb', template);
  return async () => {
    // Test databases are dropped by their files; the template goes last.
    await admin.query(`drop database if exists ${template} with (force)`).catch(() => {});
    await admin.end();
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
