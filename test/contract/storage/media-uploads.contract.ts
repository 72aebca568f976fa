import type { MediaUpload } from '../../../core/domain/media-upload';
import { DuplicateKeyError } from '../../../core/ports/storage';
import type { MediaUploadRepository } from '../../../core/ports/storage/media-uploads';
import { at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every MediaUploadRepository adapter must show. Each test gets a fresh, empty one from `make`. */
export function mediaUploadsContract(name: string, make: MakeRepository<MediaUploadRepository>): void {
  describe(`Storage contract: ${name}`, () => {
    let uploads: MediaUploadRepository;
    freshForEachTest(make, (repository) => {
      uploads = repository;
    });

    const upload = (id: string, expiresAt: Date, over: Partial<MediaUpload> = {}): MediaUpload => ({
      id, accountId: 'acct-1', filename: 'clip.mp4', contentType: 'video/mp4', mediaType: 'video', contentLength: 1234,
      state: 'created', createdAt: at(0), expiresAt, ...over,
    });

    describe('media uploads', () => {
      it('stores an upload, finds it for its account only, and refuses a duplicate id', async () => {
        await uploads.insert(upload('mu1', at(60), { source: 'camera' }));
        expect(await uploads.find('acct-1', 'mu1')).toEqual(upload('mu1', at(60), { source: 'camera' }));
        expect(await uploads.find('acct-2', 'mu1')).toBeNull();
        expect(await uploads.get('mu1')).toMatchObject({ id: 'mu1', accountId: 'acct-1' });
        expect(await uploads.get('nope')).toBeNull();
        await expect(uploads.insert(upload('mu1', at(60)))).rejects.toBeInstanceOf(DuplicateKeyError);
      });

      it('updates its state and completion facts', async () => {
        await uploads.insert(upload('mu1', at(60)));
        await uploads.update('mu1', { state: 'uploading' });
        await uploads.update('mu1', { state: 'completed', sha256: 'ab'.repeat(32), sniffedType: 'video/mp4', mediaId: 'ab'.repeat(32), completedAt: at(5) });
        await uploads.update('mu1', { state: 'used', usedBy: 'req-1' });
        expect(await uploads.find('acct-1', 'mu1')).toEqual(upload('mu1', at(60), {
          state: 'used', sha256: 'ab'.repeat(32), sniffedType: 'video/mp4', mediaId: 'ab'.repeat(32), completedAt: at(5), usedBy: 'req-1',
        }));
      });

      it('deletes an upload of its account only', async () => {
        await uploads.insert(upload('mu1', at(60)));
        expect(await uploads.delete('acct-2', 'mu1')).toBe(false);
        expect(await uploads.delete('acct-1', 'mu1')).toBe(true);
        expect(await uploads.delete('acct-1', 'mu1')).toBe(false);
        expect(await uploads.get('mu1')).toBeNull();
      });

      it('hands back what expired, hour by hour, never before its expiry', async () => {
        await uploads.insert(upload('h0', at(5)));
        await uploads.insert(upload('h1', at(65), { state: 'used', mediaId: 'cd'.repeat(32) }));
        await uploads.insert(upload('h2', at(170)));
        await uploads.insert(upload('gone', at(70)));
        await uploads.delete('acct-1', 'gone');
        // 00:30: the hour of h0 has not passed yet.
        expect(await uploads.deleteExpired(at(30))).toEqual([]);
        expect((await uploads.deleteExpired(at(61))).map((u) => u.id)).toEqual(['h0']);
        const second = await uploads.deleteExpired(at(125));
        expect(second).toEqual([upload('h1', at(65), { state: 'used', mediaId: 'cd'.repeat(32) })]);
        expect(await uploads.deleteExpired(at(125))).toEqual([]);
        expect(await uploads.get('h2')).toMatchObject({ id: 'h2' });
        expect((await uploads.deleteExpired(at(181))).map((u) => u.id)).toEqual(['h2']);
      });
    });
  });
}
