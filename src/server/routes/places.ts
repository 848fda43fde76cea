import type { Services } from '../../services/index.js';
import type { App } from '../app.js';

/** The gazetteer: branches and governorates with their aliases in both scripts. */
export async function placeRoutes(app: App, services: Services): Promise<void> {
  app.get(
    '/api/branches',
    {
      config: { access: 'places:read' },
      schema: { summary: 'Security branches and detention sites, with aliases', tags: ['places'] },
    },
    async () => ({
      items: (await services.places.branches()).map((b) => ({
        id: b.id,
        nameEn: b.nameEn,
        nameAr: b.nameAr,
        number: b.number,
        kind: b.kind,
        agency: b.agency,
        governorateId: b.governorateId,
        aliases: b.aliases,
      })),
    }),
  );

  app.get(
    '/api/governorates',
    {
      config: { access: 'places:read' },
      schema: { summary: 'Governorates, with aliases', tags: ['places'] },
    },
    async () => ({
      items: (await services.places.governorates()).map((g) => ({
        id: g.id,
        nameEn: g.nameEn,
        nameAr: g.nameAr,
        isoCode: g.isoCode,
        aliases: g.aliases,
      })),
    }),
  );
}
