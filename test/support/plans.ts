import { QueryTypes, type Sequelize } from 'sequelize';

interface PlanNode {
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const indexesOf = (node: PlanNode): string[] => [
  ...(node['Index Name'] === undefined ? [] : [node['Index Name']]),
  ...(node.Plans ?? []).flatMap(indexesOf),
];

/**
 * The indexes PostgreSQL's plan of `statement` reads, sequential scans turned off: a table of a test's
 * few rows is scanned whole whatever its indexes, so only a missing or unusable index shows.
 */
export async function indexesRead(sequelize: Sequelize, statement: string, bind: unknown[] = []) {
  return sequelize.transaction(async (transaction) => {
    await sequelize.query('SET LOCAL enable_seqscan = off', { transaction });
    const [row] = await sequelize.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${statement}`,
      { bind, transaction, type: QueryTypes.SELECT },
    );
    return indexesOf(row!['QUERY PLAN'][0].Plan);
  });
}
