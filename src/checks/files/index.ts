// Checks of the files area, registered in checks/index.ts.

import type { Check } from '../types.ts';
import { fileContentGetAccepted, fileContentMatchesUpload } from './content.ts';
import { idMatchesPath, listMembership } from './list-membership.ts';
import { foreignOrganizationRejected, unknownIdIs404 } from './org.ts';
import { fileEchoesUpload, fileSameAsUpload } from './upload.ts';
import { fileInvalidJsonlRefused, fileInvalidJsonlRefusedAtUpload } from './validation.ts';

export const FILES_CHECKS: readonly Check[] = [
  fileEchoesUpload,
  fileSameAsUpload,
  fileContentMatchesUpload,
  fileContentGetAccepted,
  idMatchesPath('file_deleted_id_matches', ['FILE-DELETE'], 'the deletion result names the file that was deleted'),
  listMembership({ name: 'file_listed', requirements: ['FILE-LIST'], listed: true, what: 'the uploaded file', summary: 'GET /v1/files lists the file just uploaded (with: id)' }),
  listMembership({ name: 'file_not_listed_after_delete', requirements: ['FILE-DELETE-GONE'], listed: false, what: 'the deleted file', summary: 'a deleted file is no longer listed (with: id)' }),
  listMembership({ name: 'file_listed_in_own_org', requirements: ['FILE-LIST-ORG-SCOPED', 'AUTH-ORG-HEADER'], listed: true, what: "the organization's own file", summary: 'a file uploaded under an organization is listed for that organization (with: id)' }),
  listMembership({ name: 'file_not_listed_in_other_org', requirements: ['FILE-LIST-ORG-SCOPED', 'AUTH-ORG-HEADER'], listed: false, what: "another organization's file", summary: "another organization's file is not listed (with: id)" }),
  foreignOrganizationRejected,
  fileInvalidJsonlRefused,
  fileInvalidJsonlRefusedAtUpload,
  unknownIdIs404('file_unknown_id_404', 'FILE-RETRIEVE-UNKNOWN', 'file'),
  unknownIdIs404('ft_unknown_id_404', 'FT-RETRIEVE-UNKNOWN', 'fine-tune'),
];
