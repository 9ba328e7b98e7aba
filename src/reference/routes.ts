// Every endpoint of the spec, in one table.
import { createTranscription, createTranslation } from './audio.ts';
import { createChatCompletion } from './chat.ts';
import { createCompletion } from './completions.ts';
import { createEdit } from './edits.ts';
import { createEmbedding } from './embeddings.ts';
import { deleteFile, downloadFileContent, listFiles, retrieveFile, uploadFile } from './files.ts';
import { cancelFineTune, createFineTune, listFineTuneEvents, listFineTunes, retrieveFineTune } from './fine-tunes.ts';
import { createImage, createImageEdit, createImageVariation, downloadImage } from './images.ts';
import { deleteModel, listEngines, listModels, retrieveEngine, retrieveModel } from './model-routes.ts';
import { createModeration } from './moderations.ts';
import { addTodo, getTodo, legal, listTodos, logo, manifestHandler, openApiYaml } from './plugin-host.ts';
import type { Route } from './router.ts';

export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: '/v1/models', handler: listModels },
  { method: 'GET', pattern: '/v1/models/:model', handler: retrieveModel },
  { method: 'DELETE', pattern: '/v1/models/:model', handler: deleteModel },
  { method: 'GET', pattern: '/v1/engines', handler: listEngines },
  { method: 'GET', pattern: '/v1/engines/:id', handler: retrieveEngine },
  { method: 'POST', pattern: '/v1/completions', handler: createCompletion },
  { method: 'POST', pattern: '/v1/chat/completions', handler: createChatCompletion },
  { method: 'POST', pattern: '/v1/edits', handler: createEdit },
  { method: 'POST', pattern: '/v1/images/generations', handler: createImage },
  { method: 'POST', pattern: '/v1/images/edits', handler: createImageEdit },
  { method: 'POST', pattern: '/v1/images/variations', handler: createImageVariation },
  { method: 'POST', pattern: '/v1/embeddings', handler: createEmbedding },
  { method: 'POST', pattern: '/v1/audio/transcriptions', handler: createTranscription },
  { method: 'POST', pattern: '/v1/audio/translations', handler: createTranslation },
  { method: 'GET', pattern: '/v1/files', handler: listFiles },
  { method: 'POST', pattern: '/v1/files', handler: uploadFile },
  { method: 'GET', pattern: '/v1/files/:id', handler: retrieveFile },
  { method: 'DELETE', pattern: '/v1/files/:id', handler: deleteFile },
  { method: 'GET', pattern: '/v1/files/:id/content', handler: downloadFileContent },
  { method: 'POST', pattern: '/v1/fine-tunes', handler: createFineTune },
  { method: 'GET', pattern: '/v1/fine-tunes', handler: listFineTunes },
  { method: 'GET', pattern: '/v1/fine-tunes/:id', handler: retrieveFineTune },
  { method: 'POST', pattern: '/v1/fine-tunes/:id/cancel', handler: cancelFineTune },
  // Served only under the reading cancel-method-put (the method is not shown); else an unknown route.
  { method: 'PUT', pattern: '/v1/fine-tunes/:id/cancel', handler: cancelFineTune },
  { method: 'GET', pattern: '/v1/fine-tunes/:id/events', handler: listFineTuneEvents },
  { method: 'POST', pattern: '/v1/moderations', handler: createModeration },
  // Public: generated image downloads (the `url` response_format).
  { method: 'GET', pattern: '/images/:name', handler: downloadImage, public: true },
  // Plugin host.
  { method: 'GET', pattern: '/.well-known/ai-plugin.json', handler: manifestHandler, public: true, cors: true },
  { method: 'GET', pattern: '/openapi.yaml', handler: openApiYaml, public: true, cors: true },
  { method: 'GET', pattern: '/logo.png', handler: logo, public: true, cors: true },
  { method: 'GET', pattern: '/legal', handler: legal, public: true, cors: true },
  { method: 'GET', pattern: '/todos', handler: listTodos, public: true, cors: true },
  { method: 'POST', pattern: '/todos', handler: addTodo, public: true, cors: true },
  { method: 'GET', pattern: '/todos/:id', handler: getTodo, public: true, cors: true },
];
